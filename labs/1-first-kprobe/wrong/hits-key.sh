# fails: 2
# The JSON key and value, not the number alone.
sed -i "s/grep -o '\"hits\":\[0-9\]\*' | cut -d: -f2/grep -o '\"hits\":[0-9]*'/" lab1.sh
