# fails: 4
# JSON, not folded stacks.
sed -i 's/rawprobectl count kprobe:vfs_read --by stack/rawprobectl -j count kprobe:vfs_read --by stack/' lab7.sh
