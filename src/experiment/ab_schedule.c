// SPDX-License-Identifier: MIT
/* The A/B schedule: pair order, round names, report paths (ab_schedule.h). */
#include "ab_schedule.h"

#include <stdio.h>
#include <string.h>

int nb_ab_side_at(int pair, int pos)
{
	return (pair % 2 == 1) ? pos : 1 - pos;
}

char nb_ab_side_name(int side)
{
	return side ? 'B' : 'A';
}

int nb_ab_round_name(char *buf, size_t len, int side, int pair, int of, const char *set)
{
	return snprintf(buf, len, "%c:%d/%d:%s", nb_ab_side_name(side), pair, of, set);
}

int nb_ab_report_name(char *buf, size_t len, int side, int pair)
{
	return snprintf(buf, len, "%c/%d.json", nb_ab_side_name(side), pair);
}

int nb_ab_log_name(char *buf, size_t len, int side, int pair, int attempt)
{
	return snprintf(buf, len, "log/%c.%d.try%d.log", nb_ab_side_name(side), pair, attempt);
}

int nb_ab_set_valid(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n >= NB_AB_SET_MAX)
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}
