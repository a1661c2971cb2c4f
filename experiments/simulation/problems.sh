# The simulation study's 42 problems, shared by study.sh and speed.sh
# (sourced; needs $hm and $tmp): each_problem FN calls FN PLATFORM N DEPTH
# for the eight reference platforms (n = 7680 on SUNEt, 2048 and 4096 on
# TORC, 20000 on the larger ones; depth limits 15, 20, 25, 30) and the
# random family (P = 25 .. 1000 processors of up to 20 types, speeds up to
# 50x apart, one per host; n = 20000, depth 30), generated into $tmp.
each_problem() {
	for d in 15 20 25 30; do
		"$1" builtin:sunet 7680 $d
		"$1" builtin:torc 2048 $d
		"$1" builtin:torc 4096 $d
		for p in msunet-01 msunet-02 msunet-03 mtorc-01 mtorc-02 mtorc-03; do
			"$1" builtin:$p 20000 $d
		done
	done
	for P in 25 50 100 200 500 1000; do
		types=$((P < 20 ? P : 20))
		printf '{"hetmap_generator": 1, "name": "random-%d", "random": {"seed": %d, "processors": %d, "types": %d, "speed_ratio": 50, "per_host": 1}}\n' \
			"$P" "$P" "$P" "$types" > "$tmp/random-$P.json"
		"$hm" generate "$tmp/random-$P.json" -o "$tmp/random-$P-platform.json" 2>/dev/null
		"$1" "$tmp/random-$P-platform.json" 20000 30
	done
}
