# fails: 5
# Measures right, but leaves the optimizer off.
sed -i 's/^\tsysctl -qw debug.kprobes-optimization="\$was"$/\t:/' lab1.sh
