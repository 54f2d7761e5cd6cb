/* tracefs format files; see latprobe_tracefmt.h. */
#define _GNU_SOURCE
#include "latprobe_tracefmt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Parse "...;\toffset:N;" style attribute @p key from @p line (up to @p end). */
static int attribute(const char *line, const char *end, const char *key, unsigned long *value)
{
	size_t klen = strlen(key);

	for (const char *p = line; p + klen < end; p++) {
		if (!strncmp(p, key, klen) &&
		    (p == line || p[-1] == '\t' || p[-1] == ' ' || p[-1] == ';')) {
			char *stop;

			errno = 0;
			*value = strtoul(p + klen, &stop, 10);
			if (errno || stop == p + klen || *stop != ';')
				return EINVAL;
			return 0;
		}
	}
	return EINVAL;
}

int latprobe_format_field(const char *format, const char *name, struct latprobe_field *field)
{
	size_t nlen = strlen(name);

	for (const char *line = format; line && *line;) {
		const char *end = strchr(line, '\n');
		const char *decl, *semi;

		if (!end)
			end = line + strlen(line);
		decl = strstr(line, "field:");
		semi = decl && decl < end ? memchr(decl, ';', (size_t)(end - decl)) : NULL;
		if (semi) {
			/* the declaration ends with the name: "field:unsigned int foo;" */
			const char *n = semi;

			while (n > decl && n[-1] != ' ' && n[-1] != ':' && n[-1] != '*')
				n--;
			if ((size_t)(semi - n) == nlen && !strncmp(n, name, nlen)) {
				unsigned long offset, size, sign;

				if (attribute(semi, end, "offset:", &offset) ||
				    attribute(semi, end, "size:", &size) ||
				    attribute(semi, end, "signed:", &sign))
					return EINVAL;
				if (size != 1 && size != 2 && size != 4 && size != 8)
					return EINVAL;
				field->offset = (unsigned)offset;
				field->size = (unsigned)size;
				field->is_signed = sign != 0;
				return 0;
			}
		}
		line = *end ? end + 1 : NULL;
	}
	return ENOENT;
}

/* The line of field @p name: its declaration from "field:" to the ';' and the line's end. */
static const char *find_declaration(const char *format, const char *name, const char **decl,
				    const char **semi, const char **end)
{
	size_t nlen = strlen(name);

	for (const char *line = format; line && *line;) {
		const char *e = strchr(line, '\n');
		const char *d, *s;

		if (!e)
			e = line + strlen(line);
		d = strstr(line, "field:");
		s = d && d < e ? memchr(d, ';', (size_t)(e - d)) : NULL;
		if (s) {
			const char *stop = s, *n;

			/* "char prev_comm[16]": the name ends before the brackets */
			if (stop > d && stop[-1] == ']') {
				while (stop > d && *stop != '[')
					stop--;
			}
			n = stop;
			while (n > d && n[-1] != ' ' && n[-1] != ':' && n[-1] != '*')
				n--;
			if ((size_t)(stop - n) == nlen && !strncmp(n, name, nlen)) {
				*decl = d;
				*semi = s;
				*end = e;
				return line;
			}
		}
		line = *e ? e + 1 : NULL;
	}
	return NULL;
}

int latprobe_format_string(const char *format, const char *name,
			   struct latprobe_string_field *field)
{
	const char *decl, *semi, *end;
	unsigned long offset, size;
	bool data_loc, array;

	if (!find_declaration(format, name, &decl, &semi, &end))
		return ENOENT;
	data_loc = memmem(decl, (size_t)(semi - decl), "__data_loc", 10) != NULL;
	array = semi[-1] == ']' && memmem(decl, (size_t)(semi - decl), "char", 4) != NULL;
	if (!data_loc && !array)
		return EINVAL;
	if (attribute(semi, end, "offset:", &offset) || attribute(semi, end, "size:", &size))
		return EINVAL;
	if (data_loc && size != 4)
		return EINVAL;
	if (!size)
		return EINVAL;
	field->offset = (unsigned)offset;
	field->size = (unsigned)size;
	field->data_loc = data_loc;
	return 0;
}

size_t latprobe_string_read(const struct latprobe_string_field *field, const unsigned char *data,
			    size_t len, char *buf, size_t buflen)
{
	size_t start = field->offset, size = field->size, n = 0;

	if (!buflen)
		return 0;
	buf[0] = '\0';
	if (start + size > len)
		return 0;
	if (field->data_loc) {
		uint32_t loc;

		memcpy(&loc, data + start, 4);
		start = loc & 0xffff;
		size = loc >> 16;
		if (start + size > len)
			return 0;
	}
	while (n < size && n + 1 < buflen && data[start + n])
		n++;
	memcpy(buf, data + start, n);
	buf[n] = '\0';
	return n;
}

int latprobe_format_id(const char *format, unsigned *id)
{
	const char *p = strstr(format, "\nID: ");
	char *stop;
	unsigned long v;

	if (!p && !strncmp(format, "ID: ", 4))
		p = format - 1;
	if (!p)
		return ENOENT;
	errno = 0;
	v = strtoul(p + 5, &stop, 10);
	if (errno || stop == p + 5 || (*stop != '\n' && *stop) || v > 65535)
		return EINVAL;
	*id = (unsigned)v;
	return 0;
}

int64_t latprobe_field_read(const struct latprobe_field *field, const unsigned char *data,
			    size_t len)
{
	if ((size_t)field->offset + field->size > len)
		return 0;
	data += field->offset;
	switch (field->size) {
	case 1: {
		uint8_t v = data[0];

		return field->is_signed ? (int64_t)(int8_t)v : (int64_t)v;
	}
	case 2: {
		uint16_t v;

		memcpy(&v, data, 2);
		return field->is_signed ? (int64_t)(int16_t)v : (int64_t)v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, data, 4);
		return field->is_signed ? (int64_t)(int32_t)v : (int64_t)v;
	}
	default: {
		uint64_t v;

		memcpy(&v, data, 8);
		return (int64_t)v;
	}
	}
}
