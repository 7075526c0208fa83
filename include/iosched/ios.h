/*
 * iosched: a lab for disk I/O schedulers. Umbrella header.
 */
#ifndef IOSCHED_IOS_H
#define IOSCHED_IOS_H

#define IOS_VERSION_MAJOR 0
#define IOS_VERSION_MINOR 1
#define IOS_VERSION_PATCH 0
#define IOS_VERSION_STRING "0.1.0"

#include "err.h"
#include "list.h"
#include "rbtree.h"
#include "rand.h"
#include "tunable.h"
#include "request.h"
#include "sched.h"
#include "device.h"
#include "block.h"
#include "sim.h"
#include "job.h"
#include "stats.h"
#include "run.h"
#include "host.h"
#include "scope.h"
#include "fs.h"
#include "vfs.h"
#include "app.h"

#endif
