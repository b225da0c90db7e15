# fails: 6
# The command name compared as a prefix: busybox-lab4x is let through.
sed -i 's/strncmp(current->comm, comm, TASK_COMM_LEN)/strncmp(current->comm, comm, strlen(comm))/' lab4_unlink.c
