# fails: 3
# The duration as the file has it, in microseconds.
sed -i 's/print(round(top\["dur"\] \* 1000), /print(round(top["dur"]), /' lab6.sh
