# fails: 3
# The function without the reason (not this kernel's drop function: an
# inline wrapper on both, with no symbol to probe).
cat >> lab7.sh <<'EOF'
drop_function() { echo kfree_skb; }
EOF
