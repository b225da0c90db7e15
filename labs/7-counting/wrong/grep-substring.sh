# fails: 2
# A name found anywhere in a line: a part of another name matches.
cat >> lab7.sh <<'EOF'
first_present() {
	local f
	for f in "$@"; do
		grep -q "$f" /proc/kallsyms && { echo "$f"; return 0; }
	done
}
EOF
