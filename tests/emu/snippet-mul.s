mul x1, x1, x1
