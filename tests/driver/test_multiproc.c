/* SPDX-License-Identifier: MIT */
#include <criterion/criterion.h>
