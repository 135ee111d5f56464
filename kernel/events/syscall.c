// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) and the file behind an event's descriptor.
 *
 * Each failure has the errno the man page documents.  When more than one
 * thing is wrong, which errno comes out is the order of the checks, and
 * that is Linux 6.1's: the flags; the attribute structure (perf_copy_attr());
 * the privileges what it asks for needs, then the period and frequency;
 * the group_fd; the pid; what the target and the group decide
 * (perf_check_target()); the PMU, then the AUX output, the cgroup, call
 * chains and the clock (perf_event_alloc()); a CPU-wide event's
 * privilege; the context (-ESRCH for an exiting task); the group; the
 * right to watch another task.
 */
#include <linux/perf_event.h>
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/poll.h>
#include <linux/ptrace.h>
#include <linux/syscalls.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/capability.h>
#include <linux/compat.h>

#include "internal.h"

static int perf_release(struct inode *inode, struct file *file)
{
	perf_event_release_kernel(file->private_data);
	return 0;
}

/* The event's task exited and no inherited copy of it is left. */
static bool perf_event_hung_up(struct perf_event *event)
{
	bool hup;

	if (READ_ONCE(event->state) > PERF_EVENT_STATE_EXIT)
		return false;
	mutex_lock(&event->child_mutex);
	hup = list_empty(&event->child_list);
	mutex_unlock(&event->child_mutex);
	return hup;
}

/* What poll() says of the buffer the event writes to, if any. */
static __poll_t perf_event_poll_buffer(struct perf_event *event)
{
	struct perf_buffer *rb;
	__poll_t ready = EPOLLHUP;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb)
		ready = perf_buffer_poll(rb);
	rcu_read_unlock();
	return ready;
}

/*
 * EPOLLIN once the buffer has woken its readers; EPOLLHUP once there is
 * nothing more to come: the task exited, or there is no buffer at all.
 */
static __poll_t perf_poll(struct file *file, poll_table *wait)
{
	struct perf_event *event = file->private_data;

	poll_wait(file, &event->waitq, wait);
	if (perf_event_hung_up(event))
		return EPOLLHUP;
	return perf_event_poll_buffer(event);
}

/* O_ASYNC: fasync_helper() keeps the list consistent by itself. */
static int perf_fasync(int fd, struct file *file, int on)
{
	struct perf_event *event = file->private_data;

	return fasync_helper(fd, file, on, &event->fasync);
}

#ifdef CONFIG_COMPAT
/*
 * A 32-bit process encodes the size of a pointer argument, 4, in the
 * ioctl commands that take one (ID, SET_FILTER, QUERY_BPF,
 * MODIFY_ATTRIBUTES): give them our size and widen the pointer.
 */
static long perf_compat_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);
	bool takes_pointer = nr == _IOC_NR(PERF_EVENT_IOC_ID) ||
			     nr == _IOC_NR(PERF_EVENT_IOC_SET_FILTER) ||
			     nr == _IOC_NR(PERF_EVENT_IOC_QUERY_BPF) ||
			     nr == _IOC_NR(PERF_EVENT_IOC_MODIFY_ATTRIBUTES);

	if (takes_pointer && _IOC_SIZE(cmd) == sizeof(compat_uptr_t))
		cmd = _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), nr, sizeof(void *));
	return perf_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
#else
#define perf_compat_ioctl	NULL
#endif

/* An event's file: read and ioctl (read.c), poll and mmap for samples. */
const struct file_operations perf_fops = {
	.read			= perf_read,
	.unlocked_ioctl		= perf_ioctl,
	.compat_ioctl		= perf_compat_ioctl,
	.poll			= perf_poll,
	.fasync			= perf_fasync,
	.mmap			= perf_mmap,
	.llseek			= no_llseek,
	.release		= perf_release,
};

/**
 * perf_event_from_file - the event behind a file, if it is one
 * @file: any file
 *
 * Return: the event, or NULL if @file is not a perf event.
 */
struct perf_event *perf_event_from_file(struct file *file)
{
	return file->f_op == &perf_fops ? file->private_data : NULL;
}

/**
 * perf_event_get - take a reference on the file of an event descriptor
 * @fd: the descriptor
 *
 * Return: the file, or ERR_PTR(-EBADF) if @fd is not a perf event.
 */
struct file *perf_event_get(unsigned int fd)
{
	struct file *file = fget(fd);

	if (file && !perf_event_from_file(file)) {
		fput(file);
		file = NULL;
	}
	return file ?: ERR_PTR(-EBADF);
}

/**
 * perf_get_event - the event of a perf file
 * @file: a file from perf_event_get()
 *
 * Return: the event, or ERR_PTR(-EINVAL).
 */
const struct perf_event *perf_get_event(struct file *file)
{
	return perf_event_from_file(file) ?: ERR_PTR(-EINVAL);
}

/**
 * perf_event_attrs - the attributes of an event
 * @event: the event
 *
 * Return: its attributes.
 */
const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	return &event->attr;
}

/* The target task: pid 0 is the caller; NULL for a CPU-wide event. */
static struct task_struct *perf_find_task(pid_t pid)
{
	struct task_struct *task;

	if (!pid)
		return get_task_struct(current);

	rcu_read_lock();
	task = find_task_by_vpid(pid);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task ?: ERR_PTR(perf_refuse(-ESRCH, "pid: no such task", pid));
}

/* Checks of the attributes against the caller's privileges. */
static int perf_check_privileges(struct perf_event_attr *attr)
{
	int ret;

	/* Debian's level 3: nothing at all without privilege. */
	if (sysctl_perf_event_paranoid > 2 && !capable(CAP_SYS_ADMIN))
		return perf_refuse(-EACCES, "perf_event_paranoid: 3 needs CAP_SYS_ADMIN",
				   sysctl_perf_event_paranoid);

	/* Kernel text changes are kernel data, whatever is counted. */
	if (!attr->exclude_kernel || attr->text_poke) {
		ret = perf_allow_kernel(attr);
		if (ret)
			return perf_refuse(ret, attr->exclude_kernel ?
					   "text_poke: needs privilege" :
					   "exclude_kernel: 0 needs privilege",
					   sysctl_perf_event_paranoid);
	}

	if (attr->namespaces && !perfmon_capable())
		return perf_refuse(-EACCES, "namespaces: needs CAP_PERFMON", 1);

	/* The overflow path lowers it, in NMI: READ_ONCE(). */
	if (attr->freq &&
	    attr->sample_freq > READ_ONCE(sysctl_perf_event_sample_rate))
		return perf_refuse(-EINVAL,
				   "sample_freq: above perf_event_max_sample_rate",
				   attr->sample_freq);
	ret = perf_check_attr_period(attr);
	if (ret)
		return ret;

	/* Physical addresses tell about the kernel's memory. */
	if (attr->sample_type & PERF_SAMPLE_PHYS_ADDR) {
		ret = perf_allow_kernel(attr);
		if (ret)
			return perf_refuse(ret, "sample_type: PHYS_ADDR needs privilege",
					   sysctl_perf_event_paranoid);
	}

	ret = security_perf_event_open(attr, PERF_SECURITY_OPEN);
	if (ret)
		return perf_refuse(ret, "security: the LSM refused the event", 0);
	return 0;
}

/*
 * What the target and the group decide about the attributes, checked
 * as soon as both are known, before the PMU sees the event: a CPU
 * number, or -1 for a task's event on any CPU; a task's group of events
 * that are all inherited or none; inherit without PERF_SAMPLE_READ;
 * sigtrap only for a task's events.
 */
static int perf_check_target(struct perf_event_attr *attr,
			     struct task_struct *task, int cpu,
			     struct perf_event *group_leader)
{
	if (cpu < -1 || cpu >= (int)nr_cpu_ids)
		return perf_refuse(-EINVAL, "cpu: no such CPU", cpu);
	if (!task && cpu == -1)
		return perf_refuse(-EINVAL, "cpu: -1 with pid -1", cpu);
	if (task && group_leader && group_leader->attr.inherit != attr->inherit)
		return perf_refuse(-EINVAL, "inherit: differs from the leader's",
				   attr->inherit);
	if (attr->sigtrap && !task)
		return perf_refuse(-EINVAL, "sigtrap: on a CPU-wide event", cpu);
	return perf_check_attr_inherit(attr);
}

/* A CPU-wide event needs the privilege and an online CPU. */
static int perf_check_cpu(struct perf_event_attr *attr,
			  struct task_struct *task, int cpu)
{
	int ret;

	if (task)
		return 0;

	ret = perf_allow_cpu(attr);
	if (ret)
		return perf_refuse(ret, "pid: -1 (CPU-wide) needs privilege",
				   sysctl_perf_event_paranoid);
	if (!cpu_online(cpu))
		return perf_refuse(-ENODEV, "cpu: offline", cpu);
	return 0;
}

/*
 * Open an event on @task (NULL: CPU-wide) and install it.  For a task
 * other than the caller, the caller holds the task's exec_update_lock
 * from the access check to the end, so that a setuid exec cannot slip in
 * between.  @cgroup_fd names the cgroup directory of a cgroup event, or
 * is -1.
 *
 * Return: the event's file, or an ERR_PTR.
 */
static struct file *perf_open_event(struct perf_event_attr *attr,
				    struct task_struct *task, int cpu,
				    struct perf_event *group_leader,
				    struct perf_event *output, int cgroup_fd)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	struct file *file;
	int ret;

	event = perf_event_alloc(attr, cpu, task, group_leader, NULL,
				 cgroup_fd, NULL, NULL);
	if (IS_ERR(event))
		return ERR_CAST(event);

	/*
	 * The CPU the PMU counts the event on, which may be another of the
	 * same die or package than @cpu (the uncore's, RAPL's).
	 */
	cpu = event->cpu;
	ret = perf_check_cpu(attr, task, cpu);
	if (ret)
		goto out_event;

	/* A task that is exiting has no context to give (-ESRCH). */
	ctx = perf_find_get_context(task, cpu);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto out_event;
	}
	/* From here on, freeing the event puts the context. */
	event->ctx = ctx;

	if (group_leader) {
		ret = perf_event_check_group(group_leader, event, ctx);
		if (ret)
			goto out_unpin;
	}

	/* Watching another task: CAP_PERFMON, or the right to read it. */
	if (task && task != current && !perfmon_capable() &&
	    !ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS)) {
		ret = perf_refuse(-EACCES, "pid: may not ptrace the task",
				  task_pid_vnr(task));
		goto out_unpin;
	}

	/* AUX samples come from an AUX event leading the group: none here. */
	if (attr->aux_sample_size) {
		ret = perf_refuse(-EINVAL, "aux_sample_size: no AUX leader",
				  attr->aux_sample_size);
		goto out_unpin;
	}

	if (output) {
		ret = perf_event_set_output(event, output);
		if (ret)
			goto out_unpin;
	}

	ret = perf_ctx_task_data(ctx, event);
	if (ret)
		goto out_unpin;

	file = anon_inode_getfile("[perf_event]", &perf_fops, event, O_RDWR);
	if (IS_ERR(file)) {
		ret = perf_refuse(PTR_ERR(file), "file: cannot be made", 0);
		goto out_unpin;
	}

	mutex_lock(&ctx->mutex);
	ret = 0;
	if (READ_ONCE(ctx->task) == TASK_TOMBSTONE)
		ret = perf_refuse(-ESRCH, "pid: task exited", 0);
	/*
	 * The leader's state changes under its context's lock at every
	 * switch of its task, hence READ_ONCE(); only the exit matters here.
	 */
	else if (group_leader &&
		 READ_ONCE(group_leader->state) <= PERF_EVENT_STATE_EXIT)
		ret = perf_refuse(-ESRCH, "group_fd: leader's task exited", 0);
	else if (group_leader && READ_ONCE(group_leader->ctx) != ctx)
		/* Its PMU moved it to another CPU meanwhile. */
		ret = perf_refuse(-EINVAL, "group_fd: leader moved CPU", 0);
	else if (group_leader && !perf_group_pmus_fit(group_leader, event))
		ret = perf_refuse(-EINVAL, "group_fd: PMUs that cannot group",
				  event->pmu->type);
	else if (group_leader && !perf_group_read_fits(group_leader, event))
		ret = perf_refuse(-E2BIG, "read_format: group read above 16 KiB",
				  group_leader->nr_siblings + 2);
	if (ret) {
		mutex_unlock(&ctx->mutex);
		if (task)
			perf_ctx_unpin(ctx);
		/* The file's release frees the event. */
		fput(file);
		return ERR_PTR(ret);
	}
	perf_install_in_context(ctx, event);
	mutex_unlock(&ctx->mutex);

	perf_event_add_to_owner(event);
	return file;

out_unpin:
	/* perf_find_get_context() pinned a task's context for the install. */
	if (task)
		perf_ctx_unpin(ctx);
out_event:
	perf_event_free(event);
	return ERR_PTR(ret);
}

/**
 * sys_perf_event_open - open a performance event
 * @attr_uptr: the attributes
 * @pid: the task to follow: 0 for the caller, -1 for any (with @cpu); with
 *	PERF_FLAG_PID_CGROUP, a descriptor of the cgroup directory to watch
 * @cpu: the CPU to count on, or -1 for any (with a task)
 * @group_fd: the leader of the group to join, or -1
 * @flags: PERF_FLAG_*
 *
 * Return: a new file descriptor, or a negative errno.
 */
SYSCALL_DEFINE5(perf_event_open,
		struct perf_event_attr __user *, attr_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_event *group_leader = NULL, *output = NULL;
	struct task_struct *task = NULL;
	struct perf_event_attr attr;
	struct fd group = { NULL, 0 };
	bool exec_locked = false;
	struct file *file;
	int fd, ret, cgroup_fd = -1;

	ret = perf_check_open_flags(flags);
	if (ret)
		return ret;

	ret = perf_copy_attr(attr_uptr, &attr);
	if (ret)
		return ret;

	ret = perf_check_privileges(&attr);
	if (ret)
		return ret;

	/* A cgroup event: pid is the cgroup's descriptor, on one CPU. */
	if (flags & PERF_FLAG_PID_CGROUP) {
		if (pid == -1)
			return perf_refuse(-EINVAL, "pid: -1 with PID_CGROUP", pid);
		if (cpu == -1)
			return perf_refuse(-EINVAL, "cpu: -1 with PID_CGROUP", cpu);
		cgroup_fd = pid;
		pid = -1;
	}

	fd = get_unused_fd_flags(flags & PERF_FLAG_FD_CLOEXEC ? O_CLOEXEC : 0);
	if (fd < 0)
		return perf_refuse(fd, "fd: no descriptor free", 0);

	if (group_fd != -1) {
		group = fdget(group_fd);
		if (!group.file) {
			ret = perf_refuse(-EBADF, "group_fd: not open", group_fd);
			goto out_fd;
		}
		group_leader = perf_event_from_file(group.file);
		if (!group_leader) {
			ret = perf_refuse(-EBADF, "group_fd: not a perf event",
					  group_fd);
			goto out_group;
		}
		if (flags & PERF_FLAG_FD_OUTPUT)
			output = group_leader;
		if (flags & PERF_FLAG_FD_NO_GROUP)
			group_leader = NULL;
	}

	if (pid != -1) {
		task = perf_find_task(pid);
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			task = NULL;
			goto out_group;
		}
		if (task != current) {
			ret = down_read_interruptible(&task->signal->exec_update_lock);
			if (ret) {
				perf_refuse(ret, "pid: interrupted", pid);
				goto out_task;
			}
			exec_locked = true;
		}
	}

	ret = perf_check_target(&attr, task, cpu, group_leader);
	if (ret)
		goto out_task;

	file = perf_open_event(&attr, task, cpu, group_leader, output,
			       cgroup_fd);
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
		goto out_task;
	}
	fd_install(fd, file);
	ret = fd;
	fd = -1;

out_task:
	if (exec_locked)
		up_read(&task->signal->exec_update_lock);
	if (task)
		put_task_struct(task);
out_group:
	fdput(group);
out_fd:
	if (fd >= 0)
		put_unused_fd(fd);
	return ret;
}
