add x1, x1, x2
