/* mapper/launch/spawn.c - see spawn.h. */
#define _GNU_SOURCE /* pipe2 */
#include "spawn.h"
#include "search/search.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINE (16u << 20)    /* longer output lines are cut into pieces */

static volatile sig_atomic_t got_signal;
static int wake_fd = -1;        /* write end of the self-pipe */

static void on_signal(int sig)
{
	int saved = errno;

	got_signal = sig;
	if (wake_fd >= 0 && write(wake_fd, "x", 1) < 0) {
		/* the pipe is full: poll wakes anyway */
	}
	errno = saved;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every signal whose default action ends hetmap (but SIGPIPE, ignored,
 * and SIGKILL/SIGSTOP, which cannot be caught): on any of them the job is
 * stopped and accounted for, never left running behind us. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
				 SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };
#define NR_FORWARDED (int)(sizeof(forwarded) / sizeof(forwarded[0]))

static void on_stop_signal(int sig)
{
	if (!hm_search_interrupt)
		hm_search_interrupt = sig;
}

void hm_stop_signals_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NR_FORWARDED; i++)
		sigaction(forwarded[i], &sa, NULL);
}

int hm_stop_signal_caught(void)
{
	return hm_search_interrupt;
}

/* In the child, between fork and exec: own process group, default signal
 * handling, stdout into the pipe, extra environment. Reports an exec
 * failure through 'err_fd' (closed on a successful exec). */
static void child(char *const argv[], const struct hm_spawn_opts *opts, int out_fd, int err_fd)
{
	sigset_t none;
	int e;

	setpgid(0, 0);
	for (int i = 0; i < NR_FORWARDED; i++)
		signal(forwarded[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(out_fd, STDOUT_FILENO) < 0 || (opts->stderr_too && dup2(out_fd, STDERR_FILENO) < 0))
		_exit(127);
	for (const char *const *env = opts->env; env && *env; env++)
		putenv((char *)*env);   /* this process is about to exec */
	if (!opts->cwd || chdir(opts->cwd) == 0)
		execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0) {
		/* nothing more to do: the parent sees status 127 */
	}
	_exit(127);
}

struct line_buf {
	char *data;
	size_t len, cap;
};

/* One line of the child's (without its newline; 'end' "\n", or "" for a
 * piece cut short): to the caller, then echoed unless hidden. */
static void take_line(const char *line, const char *end, const struct hm_spawn_opts *opts)
{
	if (opts->on_line)
		opts->on_line(line, opts->ctx);
	if (opts->echo && !(opts->hidden && opts->hidden(line))) {
		fputs(line, opts->echo);
		fputs(end, opts->echo);
		fflush(opts->echo);
	}
}

/* Append 'n' bytes read from the child; hand complete lines on. */
static void feed(struct line_buf *lb, const char *buf, size_t n, const struct hm_spawn_opts *opts)
{
	for (size_t i = 0; i < n; i++) {
		if (lb->len + 1 >= lb->cap) {
			size_t cap = lb->cap ? 2 * lb->cap : 4096;
			char *d = cap <= MAX_LINE ? realloc(lb->data, cap) : NULL;

			if (!d) {       /* too long or no memory: cut here */
				if (lb->data) {
					lb->data[lb->len] = '\0';
					take_line(lb->data, "", opts);
				}
				lb->len = 0;
				continue;
			}
			lb->data = d, lb->cap = cap;
		}
		if (buf[i] == '\n') {
			lb->data[lb->len] = '\0';
			take_line(lb->data, "\n", opts);
			lb->len = 0;
		} else {
			lb->data[lb->len++] = buf[i];
		}
	}
}

enum { MAX_TREE = 4096 };

/* The descendants of 'root' (found through /proc), into pids[]: Open MPI
 * puts every local rank in a process group of its own, so the child's
 * group alone does not reach them. */
static int descendants(pid_t root, pid_t *pids, int max)
{
	static pid_t pid_of[MAX_TREE], parent_of[MAX_TREE];
	DIR *proc = opendir("/proc");
	struct dirent *de;
	int n = 0, found = 0;

	if (!proc)
		return 0;
	while ((de = readdir(proc)) && n < MAX_TREE) {
		char path[288];
		FILE *f;
		int pid, ppid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		/* "pid (comm) state ppid": comm may hold spaces, skip to the last ')' */
		{
			char line[512], *paren;

			if (fgets(line, sizeof(line), f) && (paren = strrchr(line, ')')) &&
			    sscanf(line, "%d", &pid) == 1 && sscanf(paren + 2, "%*c %d", &ppid) == 1) {
				pid_of[n] = pid;
				parent_of[n++] = ppid;
			}
		}
		fclose(f);
	}
	closedir(proc);
	pids[found++] = root;
	for (int i = 0; i < found && found < max; i++)
		for (int j = 0; j < n && found < max; j++)
			if (parent_of[j] == pids[i])
				pids[found++] = pid_of[j];
	return found;
}

/* Stop the child and everything it started: SIGTERM to the child's group
 * and to each of its descendants, SIGKILL to whatever outlives the grace
 * period. Only processes that descend from our child are signalled. The
 * child may be reaped here (its status in *status, *reaped set). */
static void stop_tree(pid_t pid, double grace, int *status, int *reaped)
{
	static pid_t tree[MAX_TREE];
	double deadline = now() + (grace > 0 ? grace : 5);
	int n = descendants(pid, tree, MAX_TREE), alive = 1;

	kill(-pid, SIGTERM);
	for (int i = 1; i < n; i++)
		kill(tree[i], SIGTERM);
	while (alive && now() < deadline) {
		if (!*reaped && waitpid(pid, status, WNOHANG) == pid)
			*reaped = 1;
		alive = kill(-pid, 0) == 0 && !*reaped;
		for (int i = 1; i < n && !alive; i++)
			alive = kill(tree[i], 0) == 0;
		if (alive)
			nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	if (!alive)
		return;
	kill(-pid, SIGKILL);
	for (int i = 1; i < n; i++)
		kill(tree[i], SIGKILL);
}

int hm_spawn_run(char *const argv[], const struct hm_spawn_opts *opts,
		 struct hm_spawn_result *res)
{
	struct sigaction sa, old[NR_FORWARDED];
	struct line_buf lb = { 0 };
	int out[2], errp[2], wake[2], status = 0, exec_errno = 0, open_out = 1, reaped = 0;
	double start = now();
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe2(out, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(errp, O_CLOEXEC) < 0 || pipe2(wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		close(out[0]), close(out[1]);
		return -1;
	}
	/* a signal that came while hetmap itself worked (hm_stop_signals_catch)
	 * stops this child as soon as it starts */
	got_signal = hm_search_interrupt;
	wake_fd = wake[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NR_FORWARDED; i++)
		sigaction(forwarded[i], &sa, &old[i]);

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(argv, opts, out[1], errp[1]);
	close(out[1]);
	close(errp[1]);
	if (pid < 0) {
		int e = errno;

		close(out[0]), close(errp[0]), close(wake[0]), close(wake[1]);
		errno = e;
		status = -1;
		goto restore;
	}
	setpgid(pid, pid);      /* also here: whichever runs first wins the race */
	if (opts->on_start)
		opts->on_start(pid);

	while (open_out) {
		struct pollfd pfd[2] = { { out[0], POLLIN, 0 }, { wake[0], POLLIN, 0 } };
		int wait_ms = -1;
		char buf[65536];

		if (opts->timeout > 0) {
			double left = start + opts->timeout - now();

			wait_ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		}
		if (got_signal || (opts->timeout > 0 && now() - start >= opts->timeout)) {
			res->status = got_signal ? HM_SPAWN_INTERRUPTED : HM_SPAWN_TIMEOUT;
			res->signal = got_signal;
			stop_tree(pid, opts->grace, &status, &reaped);
			break;
		}
		if (poll(pfd, 2, wait_ms) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents) {
			while (read(wake[0], buf, sizeof(buf)) > 0)
				;
		}
		if (pfd[0].revents) {
			ssize_t n = read(out[0], buf, sizeof(buf));

			if (n > 0)
				feed(&lb, buf, (size_t)n, opts);
			else if (n == 0 || errno != EINTR)
				open_out = 0;
		}
	}
	if (lb.len) {
		lb.data[lb.len] = '\0';
		take_line(lb.data, "", opts);
	}
	free(lb.data);
	/* the output is closed, or we stopped the group: reap the child, still
	 * bounded by the timeout (a launcher may close its output long before
	 * it ends) and still answering signals */
	while (!reaped) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (res->status == HM_SPAWN_EXITED &&
		    (got_signal || (opts->timeout > 0 && now() - start >= opts->timeout))) {
			res->status = got_signal ? HM_SPAWN_INTERRUPTED : HM_SPAWN_TIMEOUT;
			res->signal = got_signal;
			stop_tree(pid, opts->grace, &status, &reaped);
			continue;
		}
		poll(&(struct pollfd){ wake[0], POLLIN, 0 }, 1, 50);
	}
	if (read(errp[0], &exec_errno, sizeof(exec_errno)) == (ssize_t)sizeof(exec_errno)) {
		res->status = HM_SPAWN_NOT_FOUND;
		res->error = exec_errno;
	} else if (res->status == HM_SPAWN_EXITED && got_signal) {
		res->status = HM_SPAWN_INTERRUPTED;     /* it ended as we were stopping it */
		res->signal = got_signal;
	}
	if (res->status == HM_SPAWN_EXITED) {
		if (WIFSIGNALED(status)) {
			res->status = HM_SPAWN_SIGNALED;
			res->signal = WTERMSIG(status);
		} else {
			res->exit_code = WEXITSTATUS(status);
		}
	}
	status = 0;
	close(out[0]), close(errp[0]), close(wake[0]), close(wake[1]);
restore:
	wake_fd = -1;
	for (int i = 0; i < NR_FORWARDED; i++)
		sigaction(forwarded[i], &old[i], NULL);
	res->seconds = now() - start;
	return status;
}

const char *hm_spawn_describe(const struct hm_spawn_result *res, const struct hm_spawn_opts *opts,
			      char *buf, size_t size)
{
	switch (res->status) {
	case HM_SPAWN_EXITED:
		snprintf(buf, size, "exited with status %d", res->exit_code);
		break;
	case HM_SPAWN_SIGNALED:
		snprintf(buf, size, "was killed by signal %d (%s)", res->signal, strsignal(res->signal));
		break;
	case HM_SPAWN_NOT_FOUND:
		snprintf(buf, size, "could not be started: %s", strerror(res->error));
		break;
	case HM_SPAWN_TIMEOUT:
		snprintf(buf, size, "was stopped after the %g s timeout", opts->timeout);
		break;
	case HM_SPAWN_INTERRUPTED:
		snprintf(buf, size, "was stopped on %s", strsignal(res->signal));
		break;
	}
	return buf;
}

const char *hm_spawn_status_name(enum hm_spawn_status s)
{
	static const char *const names[] = { "exited", "signaled", "not_found", "timeout",
					     "interrupted" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* An executable regular file at 'path': HM_PROGRAM_OK or why not. */
static int runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return HM_PROGRAM_MISSING;
	if (!S_ISREG(st.st_mode))
		return HM_PROGRAM_NOT_REGULAR;
	return access(path, X_OK) ? HM_PROGRAM_NOT_EXECUTABLE : HM_PROGRAM_OK;
}

int hm_program_path(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		snprintf(buf, size, "%s", name);
		return runnable(name);
	}
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";  /* execvp's default */
	for (;;) {
		size_t n = strcspn(path, ":");

		if ((size_t)snprintf(buf, size, "%.*s%s%s", (int)n, path, n ? "/" : "", name) < size &&
		    runnable(buf) == HM_PROGRAM_OK)
			return HM_PROGRAM_OK;
		if (!path[n])
			break;
		path += n + 1;
	}
	buf[0] = '\0';
	return HM_PROGRAM_MISSING;
}

const char *hm_program_path_error(int status)
{
	static const char *const why[] = { "found", "No such file or directory",
					   "not a regular file", "not executable" };

	return status >= 0 && status <= HM_PROGRAM_NOT_EXECUTABLE ? why[status] : "?";
}
