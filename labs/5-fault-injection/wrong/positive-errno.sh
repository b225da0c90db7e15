# fails: 1 3
# The error without its minus: the caller gets a number, not an error.
sed -i 's/long rc = -errno_to_inject;/long rc = errno_to_inject;/' lab5_inject.c
