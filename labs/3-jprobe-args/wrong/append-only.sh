# fails: 4
# Equal to bash's ">>" flags: other creating calls are missed.
sed -i "s/--filter 'arg2 & 0x40'/--filter 'arg2 == 0x441'/" lab3.sh
