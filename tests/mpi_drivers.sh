#!/bin/bash
# The ScaLAPACK driver under real mpirun on 1, 2 and 4 processes
# (oversubscribed on this 2-core machine): both routines pass their check,
# a spoiled result fails it (exit 3), bad grids and arguments exit 2, and
# ranks report the grid position BLACS gave them.
set -u
. "$(dirname "$0")/lib.sh"
driver=$build/hetmap-driver
mpirun_=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)

for routine in lu gemm; do
	for grid in 1x1 1x2 2x1 2x2; do
		r=${grid%x*} c=${grid#*x}
		expect 0 '"passed":true' -- "${mpirun_[@]}" -np $((r * c)) "$driver" --routine $routine -n 400 -b 32 -r $r -c $c
	done
	expect 3 '"passed":false' -- "${mpirun_[@]}" -np 2 "$driver" --routine $routine -n 300 -b 32 -r 1 -c 2 --perturb
done
# rank 3 of a 2 x 2 grid sits at row 1, column 1 (BLACS row-major)
expect 0 '{"rank":3,"host":' -- "${mpirun_[@]}" -np 4 "$driver" --routine lu -n 200 -b 16 -r 2 -c 2
check "rank 3 at (1, 1)" grep -q '"rank":3,[^}]*"row":1,"col":1}' "$tmp/out"
expect 2 "grid 2 x 2 needs 4 processes, but 2 were started" -- "${mpirun_[@]}" -np 2 "$driver" --routine lu -n 200 -b 16 -r 2 -c 2
expect 2 "block size 64 exceeds n = 32" -- "${mpirun_[@]}" -np 1 "$driver" --routine lu -n 32 -b 64 -r 1 -c 1
expect 2 "--routine must be lu or gemm, not 'qr'" -- "${mpirun_[@]}" -np 1 "$driver" --routine qr -n 32 -b 8 -r 1 -c 1
expect 2 "-n must be an integer" -- "${mpirun_[@]}" -np 1 "$driver" --routine lu -n 1e3 -b 8 -r 1 -c 1
expect 2 "are required" -- "${mpirun_[@]}" -np 1 "$driver" --routine lu
finish mpi_drivers
