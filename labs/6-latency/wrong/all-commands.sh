# fails: 1
# One histogram for every command together.
sed -i 's/ --by comm -d "\$DURATION"/ -d "$DURATION"/' lab6.sh
