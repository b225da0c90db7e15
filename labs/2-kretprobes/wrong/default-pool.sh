# fails: 1
# Room for two calls, not one.
sed -i 's/--maxactive 1$/--maxactive 2/' lab2.sh
