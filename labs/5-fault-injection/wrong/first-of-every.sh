# fails: 2
# Off by one: the 1st and 4th calls fail, not the 3rd and 6th.
sed -i 's/if (atomic_inc_return(&calls) % every)/if (atomic_inc_return(\&calls) % every != 1 % every)/' lab5_inject.c
