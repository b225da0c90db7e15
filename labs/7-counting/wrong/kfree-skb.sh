# fails: 2
# The function without the reason (not this kernel's drop function).
cat >> lab7.sh <<'END'
drop_function() { echo kfree_skb; }
END
