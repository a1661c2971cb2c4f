#!/bin/sh
# Written by hetmap: run the plan in plan.json (gemm, n = 30000, b = 64, 32 x 32,
# 1024 processes) with launcher 'smpi', program profile 'driver'.
# The files are found beside this script, wherever the directory is
# copied; the launcher and the program are named as where it was written.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
here=$(CDPATH= cd -- "${here:-/}" && pwd && echo x) || exit 1
here=${here%?x}
cd -- "$here" || exit 1
export OPENBLAS_NUM_THREADS=1
export HETMAP_N=30000
export HETMAP_NB=64
export HETMAP_NPROW=32
export HETMAP_NPCOL=32
export HETMAP_NPROCS=1024
export HETMAP_ROUTINE=gemm
export HETMAP_GRID_ORDER=row
export HETMAP_PREDICTED_S=4.51191
export MALLOC_MMAP_THRESHOLD_=1048576
exec smpirun -platform "$here"/platform.xml -hostfile "$here"/hostfile -np 1024 --cfg=smpi/host-speed:1.12414e+10f --cfg=network/model:CM02 --cfg=smpi/test:0 --cfg=smpi/display-timing:no --log=root.thres:warning /work/main/build/hetmap-driver-smpi --routine gemm -n 30000 -b 64 -r 32 -c 32 --seed 1 --modeled
