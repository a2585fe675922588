.option norvc
add t0, t0, t1
