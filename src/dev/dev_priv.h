/*
 * Private to src/dev/: the built-in device type descriptors that dev.c lists
 * in its registry. Nothing outside src/dev/ includes this; everyone else
 * finds types by name through ios_dev_type_find().
 */
#ifndef IOSCHED_DEV_PRIV_H
#define IOSCHED_DEV_PRIV_H

#include "iosched/device.h"

extern const struct ios_dev_type ios_dev_hdd;
extern const struct ios_dev_type ios_dev_ssd;

#endif
