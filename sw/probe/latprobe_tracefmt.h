/*
 * Reading tracefs format files: the numeric ID of a trace event and the offset, size and
 * signedness of its fields (events/<system>/<event>/format), and the layout of a ring-buffer
 * page (events/header_page). Offsets are never assumed: they change between kernels.
 */
#ifndef LATPROBE_TRACEFMT_H
#define LATPROBE_TRACEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct latprobe_field {
	unsigned offset;
	unsigned size; /**< 1, 2, 4 or 8 */
	bool is_signed;
};

/**
 * Find field @p name in the text of a format file.
 * @return 0; ENOENT when there is no such field; EINVAL when the line cannot be parsed or the
 *         field is not a 1-, 2-, 4- or 8-byte integer (arrays such as comm[16] are refused).
 */
int latprobe_format_field(const char *format, const char *name, struct latprobe_field *field);

/** A string field of a record: a fixed array (char comm[16]) or a __data_loc string. */
struct latprobe_string_field {
	unsigned offset;
	unsigned size; /**< array size; 4 for a __data_loc (u16 offset, u16 length) */
	bool data_loc; /**< the field holds the offset and length of the string in the record */
};

/**
 * Find the string field @p name ("char prev_comm[16]" or "__data_loc char[] name").
 * @return 0; ENOENT when there is no such field; EINVAL when it is not a char array or
 *         a __data_loc string.
 */
int latprobe_format_string(const char *format, const char *name,
			   struct latprobe_string_field *field);

/**
 * Copy a string field of a record (@p len bytes) into @p buf, NUL-terminated and truncated to
 * @p buflen - 1 characters; an absent or out-of-record string gives "".
 * @return the length copied.
 */
size_t latprobe_string_read(const struct latprobe_string_field *field, const unsigned char *data,
			    size_t len, char *buf, size_t buflen);

/** The event's numeric ID (the "ID: N" line). @return 0, ENOENT, EINVAL. */
int latprobe_format_id(const char *format, unsigned *id);

/** Read an integer field of a record. @p len is the record's length; returns 0 if outside. */
int64_t latprobe_field_read(const struct latprobe_field *field, const unsigned char *data,
			    size_t len);

#endif /* LATPROBE_TRACEFMT_H */
