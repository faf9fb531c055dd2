/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_conf.h"

#define MF_CONF_MAX_INCLUDE_DEPTH 8

static const char *const _record_kinds[] = {
	"NodeName", "PartitionName", "NodeSet", "DownNodes", "FrontendName",
};

/* The global keys slurmctld 22.05 knows (slurm.conf(5)), sorted without
 * regard to case; record kinds and Include are handled apart.  One more,
 * SLURM_VERSION, is the line mfprio takes the release from (as `scontrol
 * show config` prints it), not warned about. */
static const char *const _known_keys[] = {
	"AccountingStorageBackupHost", "AccountingStorageEnforce",
	"AccountingStorageExternalHost", "AccountingStorageHost",
	"AccountingStorageLoc", "AccountingStorageParameters",
	"AccountingStoragePass", "AccountingStoragePort",
	"AccountingStorageTRES", "AccountingStorageType",
	"AccountingStorageUser", "AccountingStoreFlags",
	"AccountingStoreJobComment", "AcctGatherEnergyType",
	"AcctGatherFilesystemType", "AcctGatherInfinibandType",
	"AcctGatherInterconnectType", "AcctGatherNodeFreq",
	"AcctGatherProfileType", "AllowSpecResourcesUsage",
	"AuthAltParameters", "AuthAltTypes", "AuthInfo", "AuthType",
	"BackupAddr", "BackupController", "BatchStartTimeout", "BcastExclude",
	"BcastParameters", "BurstBufferParameters", "BurstBufferType",
	"CliFilterPlugins", "ClusterName", "CommunicationParameters",
	"CompleteWait", "ControlAddr", "ControlMachine", "CoreSpecPlugin",
	"CpuFreqDef", "CpuFreqGovernors", "CredType", "CryptoType",
	"DebugFlags", "DefCPUPerGPU", "DefMemPerCPU", "DefMemPerGPU",
	"DefMemPerNode", "DependencyParameters", "DisableRootJobs",
	"EioTimeout", "EnforcePartLimits", "Epilog", "EpilogMsgTime",
	"EpilogSlurmctld", "ExtSensorsFreq", "ExtSensorsType",
	"FairShareDampeningFactor", "FastSchedule", "FederationParameters",
	"FirstJobId", "GetEnvTimeout", "GpuFreqDef", "GresTypes",
	"GroupUpdateForce", "GroupUpdateTime", "HealthCheckInterval",
	"HealthCheckNodeState", "HealthCheckProgram", "InactiveLimit",
	"InteractiveStepOptions", "JobAcctGatherFrequency",
	"JobAcctGatherParams", "JobAcctGatherType", "JobCompHost",
	"JobCompLoc", "JobCompParams", "JobCompPass", "JobCompPort",
	"JobCompType", "JobCompUser", "JobContainerType",
	"JobCredentialPrivateKey", "JobCredentialPublicCertificate",
	"JobFileAppend", "JobRequeue", "JobSubmitPlugins", "KeepAliveTime",
	"KillOnBadExit", "KillWait", "LaunchParameters", "LaunchType",
	"Licenses", "LogTimeFormat", "MailDomain", "MailProg",
	"MaxArraySize", "MaxDBDMsgs", "MaxJobCount", "MaxJobId",
	"MaxMemPerCPU", "MaxMemPerNode", "MaxNodeCount", "MaxStepCount",
	"MaxTasksPerNode", "MCSParameters", "MCSPlugin", "MessageTimeout",
	"MinJobAge", "MpiDefault", "MpiParams", "NodeFeaturesPlugins",
	"OverTimeLimit", "PluginDir", "PlugStackConfig", "PowerParameters",
	"PowerPlugin", "PreemptExemptTime", "PreemptMode", "PreemptType",
	"PrEpParameters", "PrEpPlugins", "PriorityCalcPeriod",
	"PriorityDecayHalfLife", "PriorityFavorSmall", "PriorityFlags",
	"PriorityMaxAge", "PriorityParameters",
	"PrioritySiteFactorParameters", "PrioritySiteFactorPlugin",
	"PriorityType", "PriorityUsageResetPeriod", "PriorityWeightAge",
	"PriorityWeightAssoc", "PriorityWeightFairshare",
	"PriorityWeightJobSize", "PriorityWeightPartition",
	"PriorityWeightQOS", "PriorityWeightTRES", "PrivateData",
	"ProctrackType", "Prolog", "PrologEpilogTimeout", "PrologFlags",
	"PrologSlurmctld", "PropagatePrioProcess", "PropagateResourceLimits",
	"PropagateResourceLimitsExcept", "RebootProgram", "ReconfigFlags",
	"RequeueExit", "RequeueExitHold", "ResumeFailProgram",
	"ResumeProgram", "ResumeRate", "ResumeTimeout", "ResvEpilog",
	"ResvOverRun", "ResvProlog", "ReturnToService", "RoutePlugin",
	"SallocDefaultCommand", "SbcastParameters", "SchedulerAuth",
	"SchedulerParameters", "SchedulerTimeSlice", "SchedulerType",
	"ScronParameters", "SelectType", "SelectTypeParameters",
	"SLURM_VERSION", /* not slurmctld's: mfprio's release line */
	"SlurmctldAddr", "SlurmctldDebug", "SlurmctldHost",
	"SlurmctldLogFile", "SlurmctldParameters", "SlurmctldPidFile",
	"SlurmctldPlugstack", "SlurmctldPort", "SlurmctldPrimaryOffProg",
	"SlurmctldPrimaryOnProg", "SlurmctldSyslogDebug", "SlurmctldTimeout",
	"SlurmdDebug", "SlurmdLogFile", "SlurmdParameters", "SlurmdPidFile",
	"SlurmdPort", "SlurmdSpoolDir", "SlurmdSyslogDebug", "SlurmdTimeout",
	"SlurmdUser", "SlurmSchedLogFile", "SlurmSchedLogLevel", "SlurmUser",
	"SrunEpilog", "SrunPortRange", "SrunProlog", "StateSaveLocation",
	"SuspendExcNodes", "SuspendExcParts", "SuspendProgram",
	"SuspendRate", "SuspendTime", "SuspendTimeout", "SwitchParameters",
	"SwitchType", "TaskEpilog", "TaskPlugin", "TaskPluginParam",
	"TaskProlog", "TCPTimeout", "TmpFS", "TopologyParam",
	"TopologyPlugin", "TrackWCKey", "TreeWidth", "UnkillableStepProgram",
	"UnkillableStepTimeout", "UsePAM", "VSizeFactor", "WaitTime",
	"X11Parameters",
};

static void _warn(mf_conf_t *conf, const char *file, int line,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int _key_cmp(const void *a, const void *b);
static bool _is_known_key(const char *key);
static bool _is_key_char(char c);
static char *_include_name(const mf_conf_t *conf, const char *arg);
static void _strip_comment(char *line);
static void _strip_escapes(char *line);
static void _check_globals(mf_conf_t *conf, GPtrArray *pairs);
static void _record_free(gpointer p);
static bool _is_record_kind(const char *key);
static int _split_pairs(const char *line, const char *file, int lineno,
			GPtrArray *out, mf_error_t *errp);
static int _parse_into(mf_conf_t *conf, const char *text, const char *name,
		       int depth, mf_error_t *errp);
static int _include(mf_conf_t *conf, const char *arg, const char *name,
		    int lineno, int depth, mf_error_t *errp);

void mf_conf_pair_free(void *p)
{
	mf_conf_pair_t *pair = p;

	g_free(pair->key);
	g_free(pair->value);
	g_free(pair->file);
	g_free(pair);
}

static void _record_free(gpointer p)
{
	mf_conf_record_t *rec = p;

	g_free(rec->kind);
	g_ptr_array_free(rec->pairs, TRUE);
	g_free(rec);
}

static bool _is_record_kind(const char *key)
{
	for (size_t i = 0; i < G_N_ELEMENTS(_record_kinds); i++)
		if (!g_ascii_strcasecmp(key, _record_kinds[i]))
			return true;
	return false;
}

/* Record a warning "FILE:LINE: message" in the conf. */
static void _warn(mf_conf_t *conf, const char *file, int line,
		  const char *fmt, ...)
{
	char *where = g_strdup_printf("%s:%d: ", file, line);
	va_list ap;

	va_start(ap, fmt);
	mf_warning_vadd(conf->warnings, where, fmt, ap);
	va_end(ap);
	g_free(where);
}

void mf_warning_vadd(GPtrArray *warnings, const char *prefix, const char *fmt,
		     va_list ap)
{
	GString *s = g_string_new(prefix);

	g_string_append_vprintf(s, fmt, ap);
	g_ptr_array_add(warnings, g_string_free(s, FALSE));
}

static bool _is_known_key(const char *key)
{
	return bsearch(&key, _known_keys, G_N_ELEMENTS(_known_keys),
		       sizeof(_known_keys[0]), _key_cmp) != NULL;
}

static int _key_cmp(const void *a, const void *b)
{
	return g_ascii_strcasecmp(*(const char *const *) a,
				  *(const char *const *) b);
}

static bool _is_key_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.';
}

/*
 * Split one logical line into Key=Value pairs appended to OUT.  A key is
 * letters, digits, '_' and '.'; blanks may stand on either side of '=' and
 * one of '+', '-', '*', '/' before it (an operator, kept out of the key);
 * a value is either "..." (blanks allowed inside) or a run of non-blanks.
 */
static int _split_pairs(const char *line, const char *file, int lineno,
			GPtrArray *out, mf_error_t *errp)
{
	const char *p = line;

	while (*p) {
		const char *k0, *k1, *v0, *v1;
		mf_conf_pair_t *pair;

		while (g_ascii_isspace(*p))
			p++;
		if (!*p)
			break;
		k0 = p;
		while (_is_key_char(*p))
			p++;
		k1 = p;
		while (g_ascii_isspace(*p))
			p++;
		if (k1 > k0 && strchr("+-*/", *p) && *p && p[1] == '=')
			p++;
		if (k1 == k0 || *p != '=') {
			const char *t = k0;

			while (*t && !g_ascii_isspace(*t))
				t++;
			if (k1 == k0 && *k0 == '=')
				return mf_errprintf(errp, "%s:%d: empty key "
						    "before '='", file, lineno);
			return mf_errprintf(errp, "%s:%d: '%.*s' is not of the "
					    "form Key=Value", file, lineno,
					    (int) (t - k0), k0);
		}
		p++;
		while (g_ascii_isspace(*p))
			p++;
		if (*p == '"') {
			const char *q = strchr(p + 1, '"');

			if (!q)
				return mf_errprintf(errp, "%s:%d: unterminated "
					"quote in value of '%.*s'", file,
					lineno, (int) (k1 - k0), k0);
			v0 = p + 1;
			v1 = q;
			p = q + 1;
		} else {
			v0 = p;
			while (*p && !g_ascii_isspace(*p))
				p++;
			v1 = p;
		}
		pair = g_new0(mf_conf_pair_t, 1);
		pair->key = g_strndup(k0, k1 - k0);
		pair->value = g_strndup(v0, v1 - v0);
		pair->file = g_strdup(file);
		pair->line = lineno;
		g_ptr_array_add(out, pair);
	}
	return 0;
}

/* ARG with each "%c" replaced by the ClusterName set so far, in lower case
 * (as slurmctld names per-cluster files); NULL if there is none. */
static char *_include_name(const mf_conf_t *conf, const char *arg)
{
	const mf_conf_pair_t *cn;
	GString *s;
	char *lower;

	if (!strstr(arg, "%c"))
		return g_strdup(arg);
	if (!(cn = mf_conf_get(conf, "ClusterName")))
		return NULL;
	lower = g_ascii_strdown(cn->value, -1);
	s = g_string_new(NULL);
	for (const char *p = arg; *p; p++) {
		if (p[0] == '%' && p[1] == 'c') {
			g_string_append(s, lower);
			p++;
		} else {
			g_string_append_c(s, *p);
		}
	}
	g_free(lower);
	return g_string_free(s, FALSE);
}

/* Follow `Include ARG` met in file NAME at LINENO.  A file that cannot be
 * read is a warning (its settings are then absent), as is a "%c" with no
 * ClusterName; only nesting too deep or a bad included file is an error. */
static int _include(mf_conf_t *conf, const char *arg, const char *name,
		    int lineno, int depth, mf_error_t *errp)
{
	char *path, *text = NULL, *fname;
	GError *gerr = NULL;
	int rc;

	if (depth >= MF_CONF_MAX_INCLUDE_DEPTH)
		return mf_errprintf(errp, "%s:%d: Include nested more than %d "
				    "deep", name, lineno,
				    MF_CONF_MAX_INCLUDE_DEPTH);
	if (!(fname = _include_name(conf, arg))) {
		_warn(conf, name, lineno, "Include %s: '%%c' stands for the "
		      "ClusterName, and none is set above this line: not "
		      "read (slurmctld would not start)", arg);
		g_ptr_array_add(conf->missing, g_strdup(arg));
		return 0;
	}
	if (g_path_is_absolute(fname)) {
		path = g_strdup(fname);
	} else {
		char *dir = g_path_get_dirname(name);

		path = g_build_filename(dir, fname, NULL);
		g_free(dir);
	}
	g_free(fname);
	/* a device, a FIFO or a directory would never end or never start
	 * (Include /dev/zero): only a regular file is read */
	if (g_file_test(path, G_FILE_TEST_EXISTS) &&
	    !g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		_warn(conf, name, lineno, "Include %s: %s is not a regular "
		      "file; read on without it", arg, path);
		g_ptr_array_add(conf->missing, path);
		return 0;
	}
	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		_warn(conf, name, lineno, "Include %s: %s; read on without it "
		      "(slurmctld would not start)", arg, gerr->message);
		g_ptr_array_add(conf->missing, path);
		g_error_free(gerr);
		return 0;
	}
	rc = _parse_into(conf, text, path, depth + 1, errp);
	g_free(text);
	g_free(path);
	return rc;
}

/* Cut LINE at the first '#' not escaped by an odd number of '\'. */
static void _strip_comment(char *line)
{
	int bs = 0;

	for (char *p = line; *p; p++) {
		if (*p == '#' && !(bs % 2)) {
			*p = '\0';
			return;
		}
		bs = *p == '\\' ? bs + 1 : 0;
	}
}

/* Drop each escaping '\' of LINE ("\#" is '#', "\\" is '\'). */
static void _strip_escapes(char *line)
{
	char *w = line;

	for (char *r = line; *r; r++) {
		if (*r == '\\' && r[1])
			r++;
		*w++ = *r;
	}
	*w = '\0';
}

/* Check the keys of a global line: slurmctld takes one setting a line and
 * knows every key; mfprio reads on where the meaning is plain. */
static void _check_globals(mf_conf_t *conf, GPtrArray *pairs)
{
	for (guint j = 0; j < pairs->len; j++) {
		const mf_conf_pair_t *p = g_ptr_array_index(pairs, j);

		if (!_is_known_key(p->key))
			_warn(conf, p->file, p->line, "'%s' is not a "
			      "slurm.conf key: slurmctld would not start with "
			      "this file (mfprio ignores it)", p->key);
	}
	if (pairs->len > 1) {
		const mf_conf_pair_t *p = g_ptr_array_index(pairs, 1);

		_warn(conf, p->file, p->line, "%u settings on one line: "
		      "slurmctld would not start with this file (it takes "
		      "one a line; mfprio reads them all)", pairs->len);
	}
}

static int _parse_into(mf_conf_t *conf, const char *text, const char *name,
		       int depth, mf_error_t *errp)
{
	char **lines;
	GString *logical = g_string_new(NULL);
	int rc = 0, start = 0;

	if (g_str_has_prefix(text, "\xEF\xBB\xBF")) {
		_warn(conf, name, 1, "the file starts with a UTF-8 byte-order "
		      "mark: slurmctld would not start with it (a parse "
		      "error on line 1); mfprio reads on without the mark");
		text += 3;
	}
	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i] && !rc; i++) {
		char *line = lines[i];
		size_t len;
		GPtrArray *pairs;

		_strip_comment(line);
		g_strchomp(line);
		if (!logical->len)
			start = i + 1;
		len = strlen(line);
		if (len && line[len - 1] == '\\' &&
		    (len < 2 || line[len - 2] != '\\')) {
			line[len - 1] = ' ';
			g_string_append(logical, line);
			continue;
		}
		g_string_append(logical, line);
		_strip_escapes(logical->str);
		g_strstrip(logical->str);
		logical->len = strlen(logical->str);
		if (!logical->len)
			continue;

		if (!g_ascii_strncasecmp(logical->str, "include", 7) &&
		    g_ascii_isspace(logical->str[7])) {
			char *arg = g_strstrip(g_strdup(logical->str + 8));
			char *sp = arg;

			while (*sp && !g_ascii_isspace(*sp))
				sp++;
			if (*sp) {
				*sp = '\0';
				_warn(conf, name, start, "text after "
				      "'Include %s': slurmctld would not start "
				      "with this file (mfprio ignores it)",
				      arg);
			}
			rc = _include(conf, arg, name, start, depth, errp);
			g_free(arg);
			g_string_truncate(logical, 0);
			continue;
		}

		pairs = g_ptr_array_new_with_free_func(mf_conf_pair_free);
		rc = _split_pairs(logical->str, name, start, pairs, errp);
		g_string_truncate(logical, 0);
		if (rc) {
			g_ptr_array_free(pairs, TRUE);
			break;
		}
		if (pairs->len &&
		    _is_record_kind(((mf_conf_pair_t *)
				     g_ptr_array_index(pairs, 0))->key)) {
			mf_conf_record_t *rec = g_new0(mf_conf_record_t, 1);

			rec->kind = g_strdup(((mf_conf_pair_t *)
				g_ptr_array_index(pairs, 0))->key);
			rec->pairs = pairs;
			g_ptr_array_add(conf->records, rec);
		} else {
			_check_globals(conf, pairs);
			/* hand each pair over to the globals array */
			g_ptr_array_set_free_func(pairs, NULL);
			for (guint j = 0; j < pairs->len; j++)
				g_ptr_array_add(conf->globals,
						g_ptr_array_index(pairs, j));
			g_ptr_array_free(pairs, TRUE);
		}
	}
	g_string_free(logical, TRUE);
	g_strfreev(lines);
	return rc;
}

mf_conf_t *mf_conf_parse(const char *text, const char *name,
			 mf_error_t *errp)
{
	mf_conf_t *conf = g_new0(mf_conf_t, 1);

	conf->globals = g_ptr_array_new_with_free_func(mf_conf_pair_free);
	conf->records = g_ptr_array_new_with_free_func(_record_free);
	conf->warnings = g_ptr_array_new_with_free_func(g_free);
	conf->missing = g_ptr_array_new_with_free_func(g_free);
	if (_parse_into(conf, text, name, 0, errp)) {
		mf_conf_free(conf);
		return NULL;
	}
	return conf;
}

mf_conf_t *mf_conf_load(const char *path, mf_error_t *errp)
{
	char *text = NULL;
	GError *gerr = NULL;
	mf_conf_t *conf;

	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
		return NULL;
	}
	conf = mf_conf_parse(text, path, errp);
	g_free(text);
	return conf;
}

void mf_conf_free(mf_conf_t *conf)
{
	if (!conf)
		return;
	g_ptr_array_free(conf->globals, TRUE);
	g_ptr_array_free(conf->records, TRUE);
	g_ptr_array_free(conf->warnings, TRUE);
	g_ptr_array_free(conf->missing, TRUE);
	g_free(conf);
}

const mf_conf_pair_t *mf_conf_get(const mf_conf_t *conf, const char *key)
{
	for (guint i = conf->globals->len; i-- > 0;) {
		const mf_conf_pair_t *p = g_ptr_array_index(conf->globals, i);

		if (!g_ascii_strcasecmp(p->key, key))
			return p;
	}
	return NULL;
}

void mf_conf_set(mf_conf_t *conf, const char *key, const char *value,
		 const char *file, int line)
{
	mf_conf_pair_t *p = g_new0(mf_conf_pair_t, 1);

	p->key = g_strdup(key);
	p->value = g_strdup(value);
	p->file = g_strdup(file);
	p->line = line;
	g_ptr_array_add(conf->globals, p);
}

bool mf_conf_key_settable(const char *key)
{
	return (!g_ascii_strncasecmp(key, "Priority", 8) &&
		_is_known_key(key)) ||
	       !g_ascii_strcasecmp(key, "FairShareDampeningFactor");
}

int mf_conf_set_arg(mf_conf_t *conf, const char *arg, const char *file,
		    int line, mf_error_t *errp)
{
	const char *eq = strchr(arg, '=');
	char *key, *value;

	if (!eq || eq == arg)
		return mf_errprintf(errp, "%s '%s': not KEY=VALUE", file, arg);
	key = g_strstrip(g_strndup(arg, (gsize) (eq - arg)));
	if (!*key || !mf_conf_key_settable(key)) {
		mf_errprintf(errp, "%s '%s': only the Priority* keys of "
			     "slurm.conf and FairShareDampeningFactor can be "
			     "set", file, arg);
		g_free(key);
		return -1;
	}
	value = g_strstrip(g_strdup(eq + 1));
	mf_conf_set(conf, key, value, file, line);
	g_free(key);
	g_free(value);
	return 0;
}

const mf_conf_pair_t *mf_conf_record_get(const mf_conf_record_t *rec,
					 const char *key)
{
	for (guint i = 0; i < rec->pairs->len; i++) {
		const mf_conf_pair_t *p = g_ptr_array_index(rec->pairs, i);

		if (!g_ascii_strcasecmp(p->key, key))
			return p;
	}
	return NULL;
}
