/*
 * Unit tests of the tracefs format-file reader (sw/probe/latprobe_tracefmt.c) on format texts
 * as a 6.x x86-64 kernel writes them, and of reading fields from a record.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../probe/latprobe_tracefmt.h"

#include "check.h"

#define COMMON                                                                         \
	"format:\n"                                                                    \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char sched_switch[] =
    "name: sched_switch\nID: 372\n" COMMON
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
    "print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

static const char hrtimer_start[] =
    "name: hrtimer_start\nID: 460\n" COMMON
    "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
    "\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:enum hrtimer_mode mode;\toffset:40;\tsize:4;\tsigned:0;\n"
    "\tfield:bool was_armed;\toffset:44;\tsize:1;\tsigned:0;\n\n"
    "print fmt: \"hrtimer=%p softexpires=%llu\", REC->hrtimer, REC->softexpires\n";

static const char irq_handler_entry[] =
    "name: irq_handler_entry\nID: 225\n" COMMON "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n\n"
    "print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n";

static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static void test_fields(void)
{
	struct latprobe_field f;
	unsigned id = 0;

	CHECK(latprobe_format_field(sched_switch, "next_pid", &f) == 0);
	CHECK(f.offset == 56 && f.size == 4 && f.is_signed);
	CHECK(latprobe_format_field(sched_switch, "prev_pid", &f) == 0 && f.offset == 24);
	/* a name that is the tail of another must not match it */
	CHECK(latprobe_format_field(sched_switch, "pid", &f) == ENOENT);
	CHECK(latprobe_format_field(sched_switch, "prev_comm", &f) == ENOENT); /* an array */
	CHECK(latprobe_format_field(hrtimer_start, "softexpires", &f) == 0 && f.offset == 32);
	CHECK(latprobe_format_field(hrtimer_start, "expires", &f) == 0 && f.offset == 24);
	CHECK(latprobe_format_field(hrtimer_start, "hrtimer", &f) == 0 && f.offset == 8 &&
	      f.size == 8 && !f.is_signed);
	CHECK(latprobe_format_field(hrtimer_start, "common_type", &f) == 0 && f.size == 2);
	CHECK(latprobe_format_field(hrtimer_start, "was_armed", &f) == 0 && f.size == 1);
	CHECK(latprobe_format_field(header_page, "commit", &f) == 0 && f.offset == 8 &&
	      f.size == 8);
	CHECK(latprobe_format_field("\tfield:int x;\toffset:abc;\tsize:4;\tsigned:1;\n", "x", &f) ==
	      EINVAL);
	CHECK(latprobe_format_field("\tfield:int x;\toffset:4;\tsize:3;\tsigned:1;\n", "x", &f) ==
	      EINVAL);
	CHECK(latprobe_format_field("", "x", &f) == ENOENT);
	CHECK(latprobe_format_id(sched_switch, &id) == 0 && id == 372);
	CHECK(latprobe_format_id(hrtimer_start, &id) == 0 && id == 460);
	CHECK(latprobe_format_id("name: x\nformat:\n", &id) == ENOENT);
	CHECK(latprobe_format_id("name: x\nID: 12a\n", &id) == EINVAL);
}

static void test_read(void)
{
	unsigned char rec[48];
	struct latprobe_field s32 = { 4, 4, true }, u16 = { 0, 2, false }, s8 = { 2, 1, true };
	struct latprobe_field u64 = { 8, 8, false }, outside = { 44, 8, false };
	int32_t pid = -5;
	uint16_t type = 65000;
	uint64_t ptr = 0xffffc90001123ab8ull;

	memset(rec, 0, sizeof(rec));
	memcpy(rec, &type, 2);
	rec[2] = 0xff;
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &ptr, 8);
	CHECK(latprobe_field_read(&s32, rec, sizeof(rec)) == -5);
	CHECK(latprobe_field_read(&u16, rec, sizeof(rec)) == 65000);
	CHECK(latprobe_field_read(&s8, rec, sizeof(rec)) == -1);
	CHECK((uint64_t)latprobe_field_read(&u64, rec, sizeof(rec)) == ptr);
	CHECK(latprobe_field_read(&outside, rec, sizeof(rec)) == 0); /* past the record */
}

static void test_strings(void)
{
	struct latprobe_string_field f;
	unsigned char rec[64];
	char buf[32];
	uint32_t loc;

	/* a fixed array: sched_switch's comm */
	CHECK(latprobe_format_string(sched_switch, "next_comm", &f) == 0);
	CHECK(f.offset == 40 && f.size == 16 && !f.data_loc);
	CHECK(latprobe_format_string(sched_switch, "prev_comm", &f) == 0 && f.offset == 8);
	CHECK(latprobe_format_string(sched_switch, "comm", &f) == ENOENT);
	/* integers are not strings */
	CHECK(latprobe_format_string(sched_switch, "next_pid", &f) == EINVAL);
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 40, "stress-ng-cpu", 13);
	CHECK(latprobe_string_read(&f, rec, sizeof(rec), buf, sizeof(buf)) == 0);
	CHECK(latprobe_format_string(sched_switch, "next_comm", &f) == 0);
	CHECK(latprobe_string_read(&f, rec, sizeof(rec), buf, sizeof(buf)) == 13 &&
	      !strcmp(buf, "stress-ng-cpu"));
	/* truncated to the buffer, and a full 16-byte comm without its NUL */
	CHECK(latprobe_string_read(&f, rec, sizeof(rec), buf, 7) == 6 && !strcmp(buf, "stress"));
	memcpy(rec + 40, "0123456789abcdefXYZ", 19);
	CHECK(latprobe_string_read(&f, rec, sizeof(rec), buf, sizeof(buf)) == 16 &&
	      !strcmp(buf, "0123456789abcdef"));
	/* a record too short for the field gives "" */
	CHECK(latprobe_string_read(&f, rec, 50, buf, sizeof(buf)) == 0 && buf[0] == '\0');
	/* a __data_loc string: offset and length in the field, the text later in the record */
	CHECK(latprobe_format_string(irq_handler_entry, "name", &f) == 0);
	CHECK(f.offset == 12 && f.size == 4 && f.data_loc);
	memset(rec, 0, sizeof(rec));
	loc = (16u << 16) | 16u; /* 16 bytes at offset 16: "virtio0-input.0\0" */
	memcpy(rec + 12, &loc, 4);
	memcpy(rec + 16, "virtio0-input.0", 16);
	CHECK(latprobe_string_read(&f, rec, 32, buf, sizeof(buf)) == 15 &&
	      !strcmp(buf, "virtio0-input.0"));
	/* a location running past the record gives "" */
	CHECK(latprobe_string_read(&f, rec, 30, buf, sizeof(buf)) == 0 && buf[0] == '\0');
}

int main(void)
{
	test_strings();
	test_fields();
	test_read();
	return check_report("test_latprobe_tracefmt");
}
