# bar chart of the BPF run time per context switch (perf bench sched pipe)
set terminal pngcairo size 1200,500 font "DejaVu Sans,10" noenhanced
set output outfile
set title "Run time of the profiler's BPF programs per context switch (lower is better)"
set ylabel "ns per context switch"
set style fill solid 0.8 border -1
set boxwidth 0.6
set grid ytics
set yrange [0:*]
unset key
set xtics rotate by -30
plot datafile using 0:2:xtic(1) with boxes lc rgb "#4682b4", \
     '' using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.7
