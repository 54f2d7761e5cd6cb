/* stdio.h of the Linux SoC's freestanding C layer (sw/linux-soc/libc): unbuffered files, the
 * conversions liblatmon and the init program use (%d %u %x %s %c with l/ll and a width). */
#ifndef LSOC_STDIO_H
#define LSOC_STDIO_H
#include <stdarg.h>
#include <stddef.h>
typedef struct lsoc_file FILE;
FILE *fopen(const char *path, const char *mode);
int fclose(FILE *f);
int fscanf(FILE *f, const char *fmt, ...);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define EOF (-1)
#endif
