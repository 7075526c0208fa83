/*
 * SHA-256 (include/iosched/sha256.h), written from FIPS 180-4 section 6.2:
 * 64-byte blocks, a 64-word message schedule, 64 rounds, the length in
 * bits appended big-endian after a 0x80 byte and zero padding.
 */
#include <string.h>
#include "iosched/sha256.h"

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t sha_ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(struct ios_sha256 *c, const unsigned char *p)
{
	uint32_t w[64], v[8], t1, t2;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = sha_ror(w[i - 15], 7) ^ sha_ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = sha_ror(w[i - 2], 17) ^ sha_ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, c->h, sizeof(v));
	for (int i = 0; i < 64; i++) {
		t1 = v[7] + (sha_ror(v[4], 6) ^ sha_ror(v[4], 11) ^ sha_ror(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha_k[i] + w[i];
		t2 = (sha_ror(v[0], 2) ^ sha_ror(v[0], 13) ^ sha_ror(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(*v));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		c->h[i] += v[i];
}

void ios_sha256_init(struct ios_sha256 *c)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->fill = 0;
}

void ios_sha256_update(struct ios_sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->len += len;
	while (len) {
		size_t n = 64 - c->fill < len ? 64 - c->fill : len;

		memcpy(c->blk + c->fill, p, n);
		c->fill += n;
		p += n;
		len -= n;
		if (c->fill == 64) {
			sha_block(c, c->blk);
			c->fill = 0;
		}
	}
}

void ios_sha256_hex(struct ios_sha256 *c, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	uint64_t bits = c->len * 8;
	unsigned char pad = 0x80, len[8];

	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	ios_sha256_update(c, &pad, 1);
	pad = 0;
	while (c->fill != 56)
		ios_sha256_update(c, &pad, 1);
	ios_sha256_update(c, len, 8);
	for (int i = 0; i < 32; i++) {
		unsigned char b = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));

		hex[2 * i] = digits[b >> 4];
		hex[2 * i + 1] = digits[b & 15];
	}
	hex[64] = '\0';
}

void ios_sha256_buf(const void *data, size_t len, char *hex)
{
	struct ios_sha256 c;

	ios_sha256_init(&c);
	ios_sha256_update(&c, data, len);
	ios_sha256_hex(&c, hex);
}
