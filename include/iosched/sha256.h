/*
 * SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits.
 *
 * Why: a sweep (sweep.h) names its copied inputs and its manifest by
 * content, so a task run on another machine can be checked to read the
 * same bytes as the plan did; `sha256sum FILE` prints the same name.
 */
#ifndef IOSCHED_SHA256_H
#define IOSCHED_SHA256_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_SHA256_HEX 65		/* 64 digits and the NUL */

struct ios_sha256 {
	uint32_t h[8];
	uint64_t len;			/* bytes hashed so far */
	unsigned char blk[64];
	size_t fill;			/* bytes in blk */
};

void ios_sha256_init(struct ios_sha256 *c);
void ios_sha256_update(struct ios_sha256 *c, const void *data, size_t len);
/* Finish into @hex (IOS_SHA256_HEX bytes); @c must be initialised again to reuse it. */
void ios_sha256_hex(struct ios_sha256 *c, char *hex);
/* The digest of @len bytes at @data, in one call. */
void ios_sha256_buf(const void *data, size_t len, char *hex);

#ifdef __cplusplus
}
#endif
#endif
