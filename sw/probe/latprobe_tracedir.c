/* The tracefs directory: see latprobe_tracedir.h. */
#define _GNU_SOURCE
#include "latprobe_tracedir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

int latprobe_tracedir_find(char *root, size_t len, bool *mounted)
{
	FILE *f = fopen("/proc/mounts", "re");
	char dev[256], dir[256], type[64];
	bool found = false;

	*mounted = false;
	if (f) {
		while (!found && fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3) {
			if (!strcmp(type, "tracefs") && strlen(dir) < len) {
				snprintf(root, len, "%s", dir);
				found = true;
			}
		}
		fclose(f);
	}
	if (found)
		return 0;
	snprintf(root, len, "%s", LATPROBE_TRACEFS_MOUNT);
	if (mount("nodev", root, "tracefs", 0, NULL))
		return errno;
	*mounted = true;
	return 0;
}

int latprobe_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;

	if (fd < 0)
		return errno;
	while (used + 1 < len) {
		ssize_t r = read(fd, buf + used, len - 1 - used);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			return e;
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	buf[used] = '\0';
	close(fd);
	return used + 1 < len ? 0 : EFBIG;
}

int latprobe_write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(text);
	ssize_t w;
	int e;

	if (fd < 0)
		return errno;
	w = write(fd, text, len);
	e = w < 0 ? errno : (size_t)w != len ? EIO : 0;
	if (close(fd) && !e)
		e = errno;
	return e;
}

void latprobe_tracedir_remove_stale(const char *root, const char *prefix)
{
	size_t plen = strlen(prefix);
	char path[512];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/instances", root);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char *stop;
		long pid;

		if (strncmp(e->d_name, prefix, plen))
			continue;
		pid = strtol(e->d_name + plen, &stop, 10);
		if (*stop || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* not an instance of ours, or that latprobe still runs */
		snprintf(path, sizeof(path), "%s/instances/%s/current_tracer", root, e->d_name);
		latprobe_write_text(path, "nop");
		snprintf(path, sizeof(path), "%s/instances/%s", root, e->d_name);
		if (!rmdir(path))
			fprintf(stderr,
				"latprobe: removed the trace instance %s left by a latprobe that "
				"was killed\n",
				path);
	}
	closedir(d);
}
