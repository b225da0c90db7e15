# fails: 3
# --pid names one thread, not the process.
sed -i 's/--tgid "\$2"/--pid "$2"/' lab3.sh
