# fails: 1
# Another function than the exercise's.
sed -i 's/\.symbol\t= "do_unlinkat"/.symbol\t= "vfs_unlink"/' lab4_unlink.c
