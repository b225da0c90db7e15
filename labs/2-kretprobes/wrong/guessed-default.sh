# fails: 3
# Computed (twice the CPUs), not read from the kernel.
cat >> lab2.sh <<'END'
default_maxactive() { echo $((2 * $(nproc))); }
END
