# fails: 4
# The name compared without its NUL: secret2 begins with secret.
sed -i 's/memcmp(name, path, len))/memcmp(name, path, len - 1))/' lab5_inject.c
