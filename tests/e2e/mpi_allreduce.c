/* The suite's MPI job: MPI_Allreduce of 1 KB, 1 MB and 64 MB of floats,
 * each result checked, then a barrier. Every rank prints one line per step
 * as it ends (flushed), so a run cut by `timeout` shows where it stopped;
 * rank 0 ends with "mpi: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Prints one progress line of this rank ("step: X" as X starts, "step ok:
 * X" as it ends), flushed at once. */
static void say(int rank, double t0, const char *state, const char *what)
{
	printf("[%5.1f s] rank %d %s %s\n", MPI_Wtime() - t0, rank, state,
	       what);
	fflush(stdout);
}

/* Sums count floats of 1.0 over every rank and checks each element. */
static int allreduce_check(size_t count, int world)
{
	float *buf = malloc(count * sizeof(*buf));
	int bad = 0;

	if (buf == NULL)
		return -1;
	for (size_t i = 0; i < count; i++)
		buf[i] = 1.0f;
	if (MPI_Allreduce(MPI_IN_PLACE, buf, (int)count, MPI_FLOAT, MPI_SUM,
	                  MPI_COMM_WORLD) != MPI_SUCCESS)
		bad = -1;
	for (size_t i = 0; bad == 0 && i < count; i++)
		if (buf[i] != (float)world)
			bad = -1;
	free(buf);
	return bad;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		size_t bytes;
	} steps[] = {{"allreduce 1KB", 1 << 10},
	             {"allreduce 1MB", 1 << 20},
	             {"allreduce 64MB", 64 << 20}};
	int rank, world;
	double t0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &world);
	t0 = MPI_Wtime();
	say(rank, t0, "step ok:", "init");
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		say(rank, t0, "step:", steps[i].name);
		if (allreduce_check(steps[i].bytes / sizeof(float), world) != 0) {
			printf("mpi: error at %s: wrong result on rank %d\n",
			       steps[i].name, rank);
			fflush(stdout);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		say(rank, t0, "step ok:", steps[i].name);
	}
	say(rank, t0, "step:", "barrier");
	MPI_Barrier(MPI_COMM_WORLD);
	say(rank, t0, "step ok:", "barrier");
	if (rank == 0)
		printf("mpi: ok\n");
	MPI_Finalize();
	return 0;
}
