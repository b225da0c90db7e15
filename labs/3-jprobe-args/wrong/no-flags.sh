# fails: 1
# Two arguments: the flags are not recorded.
sed -i '0,/--args s32,ustr,u32/s//--args s32,ustr/' lab3.sh
