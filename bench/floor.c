// SPDX-License-Identifier: GPL-2.0
/* Load and attach empty.bpf.o, the floor of BPF off-CPU profiling, until
 * SIGINT.  usage: floor empty.bpf.o */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>

static void nothing(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;

	if (argc != 2)
		return 2;
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "cannot load %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__attach(prog)) {
			fprintf(stderr, "cannot attach %s\n", bpf_program__name(prog));
			return 1;
		}
	}
	signal(SIGINT, nothing);
	pause();
	return 0;
}
