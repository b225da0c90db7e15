# fails: 2
# One instance per CPU: sleepers hold theirs for a second.
sed -i 's/--maxactive "\$1"$/--maxactive "$(nproc)"/' lab2.sh
