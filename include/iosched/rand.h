/*
 * Seeded pseudo-random numbers for the simulator.
 *
 * xoshiro256** (Blackman and Vigna, 2018) seeded through splitmix64. Every
 * random stream in a run (each job's offsets, each device's internal choices)
 * owns one of these states, derived from the run seed and a stream id, so
 * adding a job never changes the numbers another job draws. Nothing in the
 * library reads a global generator.
 */
#ifndef IOSCHED_RAND_H
#define IOSCHED_RAND_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ios_rand {
	uint64_t s[4];
};

/* Seed from a run seed and a stream id; equal arguments give equal streams. */
void ios_rand_seed(struct ios_rand *r, uint64_t seed, uint64_t stream);
uint64_t ios_rand_u64(struct ios_rand *r);
/* Uniform in [0, n) without modulo bias; n == 0 returns 0. */
uint64_t ios_rand_below(struct ios_rand *r, uint64_t n);
/* Uniform in [0, 1). */
double ios_rand_double(struct ios_rand *r);
/* splitmix64 step: a good 64-bit mixer for deriving seeds. */
uint64_t ios_mix64(uint64_t x);

#ifdef __cplusplus
}
#endif

#endif
