/*
 * xoshiro256** generator and splitmix64 seeding; see include/iosched/rand.h.
 */
#include "iosched/rand.h"

uint64_t ios_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void ios_rand_seed(struct ios_rand *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = ios_mix64(seed) ^ ios_mix64(stream + 0x632be59bd9b4e019ULL);

	for (int i = 0; i < 4; i++) {
		x = ios_mix64(x);
		r->s[i] = x;
	}
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1; /* the all-zero state is a fixed point */
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t ios_rand_u64(struct ios_rand *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t ios_rand_below(struct ios_rand *r, uint64_t n)
{
	uint64_t x, limit;

	if (n == 0)
		return 0;
	/* reject the top partial block so every residue is equally likely */
	limit = UINT64_MAX - (UINT64_MAX % n);
	do {
		x = ios_rand_u64(r);
	} while (x >= limit);
	return x % n;
}

double ios_rand_double(struct ios_rand *r)
{
	return (double)(ios_rand_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}
