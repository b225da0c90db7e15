# fails: 4
# log2 buckets, the Steps' kind: a 50 ms sleep and a 60 ms one share one.
sed -i 's/--linear 10000000 //' lab6.sh
