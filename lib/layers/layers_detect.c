/* netprobe layers, collect: container, WSL, virtualization and /dev/shm
 * from files read through the sysroot, in systemd-detect-virt's order. */
#include "layers/layers_int.h"
#include "kernel/nl.h"
#include "kernel/proc_route.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>
#endif

#define ENV_MAX 65536

/* Copies src into dst of size len, cut short when it does not fit. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}
#define TEXT_MAX 65536
#define K8S_SA "/var/run/secrets/kubernetes.io/serviceaccount"

/* Finds NAME=value in a NUL-separated environ block of n bytes. Returns the
 * value (inside buf), or NULL. */
static const char *environ_get(const char *buf, size_t n, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < n;) {
		const char *e = buf + i;
		size_t el = strnlen(e, n - i);

		if (el > len && strncmp(e, name, len) == 0 && e[len] == '=')
			return e + len + 1;
		i += el + 1;
	}
	return NULL;
}

/* Reads an environ file. Returns its byte count, or -1. */
static ssize_t read_environ(const struct sysroot *sr, const char *path,
                            char *buf, size_t len)
{
	return sysroot_read(sr, path, buf, len);
}

/* systemd's container names, plus containerd's own. */
enum layer_container layers_container_from_name(const char *name)
{
	static const struct {
		const char *name;
		enum layer_container c;
	} map[] = {
		{"lxc", CONTAINER_LXC},       {"lxc-libvirt", CONTAINER_LXC},
		{"docker", CONTAINER_DOCKER}, {"podman", CONTAINER_PODMAN},
		{"containerd", CONTAINER_CONTAINERD},
	};

	if (name == NULL || *name == '\0')
		return CONTAINER_NONE;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(name, map[i].name) == 0)
			return map[i].c;
	return CONTAINER_OTHER;
}

/* systemd's detect_container_files(): podman's marker before docker's,
 * since /.dockerenv can end up in any image. */
static enum layer_container container_files(struct layers *ly,
                                            const struct sysroot *sr)
{
	if (sysroot_exists(sr, "/run/.containerenv")) {
		evidence_add(&ly->evidence, "/run/.containerenv",
			     "podman's marker file exists");
		return CONTAINER_PODMAN;
	}
	if (sysroot_exists(sr, "/.dockerenv")) {
		evidence_add(&ly->evidence, "/.dockerenv",
			     "docker's marker file exists");
		return CONTAINER_DOCKER;
	}
	return CONTAINER_NONE;
}

/* Maps a container= value, resolving "oci" through the marker files as
 * systemd does. */
static enum layer_container translate(struct layers *ly,
                                      const struct sysroot *sr,
                                      const char *name, const char *source)
{
	enum layer_container c;

	evidence_add(&ly->evidence, source, "container manager is '%s'",
		     name);
	if (strcmp(name, "oci") == 0) {
		c = container_files(ly, sr);
		return c != CONTAINER_NONE ? c : CONTAINER_OTHER;
	}
	return layers_container_from_name(name);
}

/* The checks of systemd's detect_container(), in its order; the WSL test
 * is done apart because WSL is a layer of its own here. */
static enum layer_container detect_container(struct layers *ly,
                                             const struct sysroot *sr,
                                             const char *env1, ssize_t n1)
{
	char line[256];
	const char *e;

	if (sysroot_exists(sr, "/proc/vz") && !sysroot_exists(sr, "/proc/bc")) {
		evidence_add(&ly->evidence, "/proc/vz",
			     "/proc/vz exists without /proc/bc: openvz");
		return CONTAINER_OTHER;
	}
	if (sysroot_read_line(sr, "/run/host/container-manager", line,
			      sizeof(line)) > 0)
		return translate(ly, sr, line, "/run/host/container-manager");
	if (sysroot_read_line(sr, "/run/systemd/container", line,
			      sizeof(line)) > 0)
		return translate(ly, sr, line, "/run/systemd/container");
	e = n1 > 0 ? environ_get(env1, (size_t)n1, "container") : NULL;
	if (e != NULL && *e != '\0') {
		snprintf(line, sizeof(line), "%s", e);
		return translate(ly, sr, line, "/proc/1/environ");
	}
	return container_files(ly, sr);
}

/* Cgroup paths name the runtime when no file did (systemd's last resort is
 * the cgroup namespace; the path tells us more). */
static enum layer_container container_from_cgroup(struct layers *ly,
                                                  const char *cg, bool *k8s)
{
	if (strstr(cg, "kubepods") != NULL) {
		evidence_add(&ly->evidence, "/proc/1/cgroup",
			     "cgroup path contains 'kubepods'");
		*k8s = true;
	}
	if (strstr(cg, "libpod") != NULL) {
		evidence_add(&ly->evidence, "/proc/1/cgroup",
			     "cgroup path contains 'libpod'");
		return CONTAINER_PODMAN;
	}
	if (strstr(cg, "cri-containerd") != NULL ||
	    strstr(cg, "containerd") != NULL) {
		evidence_add(&ly->evidence, "/proc/1/cgroup",
			     "cgroup path contains 'containerd'");
		return CONTAINER_CONTAINERD;
	}
	if (strstr(cg, "/docker") != NULL || strstr(cg, "docker-") != NULL) {
		evidence_add(&ly->evidence, "/proc/1/cgroup",
			     "cgroup path contains 'docker'");
		return CONTAINER_DOCKER;
	}
	if (strstr(cg, "/lxc") != NULL || strstr(cg, "lxc.payload") != NULL) {
		evidence_add(&ly->evidence, "/proc/1/cgroup",
			     "cgroup path contains 'lxc'");
		return CONTAINER_LXC;
	}
	if (*k8s)
		return CONTAINER_OTHER;
	return CONTAINER_NONE;
}

/* Kubernetes leaves its service variables and token in every pod. */
static bool detect_k8s(struct layers *ly, const struct sysroot *sr,
                       const char *env1, ssize_t n1, char *envs)
{
	ssize_t ns;
	bool k8s = false;

	if (n1 > 0 && environ_get(env1, (size_t)n1,
				  "KUBERNETES_SERVICE_HOST") != NULL) {
		evidence_add(&ly->evidence, "/proc/1/environ",
			     "KUBERNETES_SERVICE_HOST is set");
		k8s = true;
	}
	ns = read_environ(sr, "/proc/self/environ", envs, ENV_MAX);
	if (!k8s && ns > 0 &&
	    environ_get(envs, (size_t)ns, "KUBERNETES_SERVICE_HOST") != NULL) {
		evidence_add(&ly->evidence, "/proc/self/environ",
			     "KUBERNETES_SERVICE_HOST is set");
		k8s = true;
	}
	if (sysroot_exists(sr, K8S_SA)) {
		evidence_add(&ly->evidence, K8S_SA,
			     "a Kubernetes service account is mounted");
		k8s = true;
	}
	return k8s;
}

/* Prefix match against systemd's DMI vendor table, in its order. */
const char *layers_dmi_vendor(const char *s)
{
	/* systemd's dmi_vendor_table, in its order */
	static const struct {
		const char *vendor, *id;
	} table[] = {
		{"KVM", "kvm"},
		{"OpenStack", "kvm"},
		{"KubeVirt", "kvm"},
		{"Amazon EC2", "amazon"},
		{"QEMU", "qemu"},
		{"VMware", "vmware"},
		{"VMW", "vmware"},
		{"innotek GmbH", "oracle"},
		{"VirtualBox", "oracle"},
		{"Oracle Corporation", "oracle"},
		{"Xen", "xen"},
		{"Bochs", "bochs"},
		{"Parallels", "parallels"},
		{"BHYVE", "bhyve"},
		{"Hyper-V", "microsoft"},
		{"Apple Virtualization", "apple"},
		{"Google Compute Engine", "google"},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strncmp(s, table[i].vendor, strlen(table[i].vendor)) == 0)
			return table[i].id;
	return NULL;
}

/* The CPUID hypervisor bit and signature; only meaningful live. Returns the
 * name or NULL when no hypervisor is announced. */
static const char *cpuid_hypervisor(char *sig, size_t len)
{
#if defined(__i386__) || defined(__x86_64__)
	static const struct {
		const char *sig, *id;
	} table[] = {
		{"XenVMMXenVMM", "xen"},    {"KVMKVMKVM", "kvm"},
		{"Linux KVM Hv", "kvm"},    {"TCGTCGTCGTCG", "qemu"},
		{"VMwareVMware", "vmware"}, {"Microsoft Hv", "microsoft"},
		{"bhyve bhyve ", "bhyve"},  {"ACRNACRNACRN", "acrn"},
	};
	unsigned eax, ebx, ecx, edx;
	char s[13];

	if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0 ||
	    !(ecx & 0x80000000u))
		return NULL;
	__cpuid(0x40000000u, eax, ebx, ecx, edx);
	memcpy(s, &ebx, 4);
	memcpy(s + 4, &ecx, 4);
	memcpy(s + 8, &edx, 4);
	s[12] = '\0';
	snprintf(sig, len, "%s", s);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(s, table[i].sig) == 0)
			return table[i].id;
	return "vm-other";
#else
	(void)sig;
	(void)len;
	return NULL;
#endif
}

/* DMI in systemd's file order, then CPUID when live. */
static int detect_virt(struct layers *ly, const struct sysroot *sr)
{
	static const char *const files[] = {
		"/sys/class/dmi/id/product_name",
		"/sys/class/dmi/id/sys_vendor",
		"/sys/class/dmi/id/board_vendor",
		"/sys/class/dmi/id/bios_vendor",
		"/sys/class/dmi/id/product_version",
	};
	char line[256], sig[16];
	const char *id;
	int nread = 0;

	snprintf(ly->virt, sizeof(ly->virt), "unknown");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (sysroot_read_line(sr, files[i], line, sizeof(line)) < 0)
			continue;
		nread++;
		if ((id = layers_dmi_vendor(line)) != NULL) {
			/* EC2 bare-metal instances carry Amazon's DMI too;
			 * systemd tells them by ".metal" in product_name */
			if (strcmp(id, "amazon") == 0 &&
			    sysroot_read_line(sr, files[0], line,
					      sizeof(line)) >= 0 &&
			    strstr(line, ".metal") != NULL) {
				snprintf(ly->virt, sizeof(ly->virt), "none");
				evidence_add(&ly->evidence, files[0],
					     "'%s' is an EC2 bare-metal "
					     "instance", line);
				return 1;
			}
			snprintf(ly->virt, sizeof(ly->virt), "%s", id);
			evidence_add(&ly->evidence, files[i],
				     "DMI says '%s': virtual machine (%s)",
				     line, id);
			return 1;
		}
	}
	if (sysroot_exists(sr, "/proc/xen")) {
		snprintf(ly->virt, sizeof(ly->virt), "xen");
		evidence_add(&ly->evidence, "/proc/xen",
			     "/proc/xen exists: a Xen domain");
		return 1;
	}
	if (sysroot_is_live(sr) && (id = cpuid_hypervisor(sig, sizeof(sig))) !=
					    NULL) {
		snprintf(ly->virt, sizeof(ly->virt), "%s", id);
		evidence_add(&ly->evidence, "cpuid",
			     "hypervisor bit set, signature '%s'", sig);
		return 1;
	}
	if (nread > 0 || sysroot_is_live(sr)) {
		snprintf(ly->virt, sizeof(ly->virt), "none");
		evidence_add(&ly->evidence, "/sys/class/dmi/id",
			     "no virtual machine vendor in DMI%s",
			     sysroot_is_live(sr) ? " nor CPUID" : "");
	}
	return nread > 0;
}

/* "65536k" as tmpfs writes it. Returns bytes, or -1. */
static long long tmpfs_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno != 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	default: break;
	}
	return v > (unsigned long long)1 << 62 ? -1 : (long long)v;
}

/* Field 4 (mountinfo) or 1 (mounts) is the mount point; the options are
 * the super options after "-" or field 3. */
long long layers_parse_shm(const char *text, bool mounts)
{
	const char *line = text;
	long long found = -1;

	/* the last mount on /dev/shm wins: it hides the ones below it */
	while (line != NULL && *line != '\0') {
		const char *nl = strchr(line, '\n');
		char buf[1024], *f[16], *save = NULL, *opts = NULL;
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		int nf = 0, mp;

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = '\0';
		line = nl ? nl + 1 : NULL;
		for (char *t = strtok_r(buf, " ", &save); t && nf < 16;
		     t = strtok_r(NULL, " ", &save))
			f[nf++] = t;
		mp = mounts ? 1 : 4;
		if (nf <= mp || strcmp(f[mp], "/dev/shm") != 0)
			continue;
		if (mounts) {
			if (nf < 4)
				continue;
			opts = f[3];
		} else {
			/* super options follow "- fstype source" */
			for (int i = 6; i + 3 < nf; i++) {
				if (strcmp(f[i], "-") == 0) {
					opts = f[i + 3];
					break;
				}
			}
			if (opts == NULL)
				continue;
		}
		found = -2;
		for (char *o = strtok_r(opts, ",", &save); o;
		     o = strtok_r(NULL, ",", &save))
			if (strncmp(o, "size=", 5) == 0)
				found = tmpfs_size(o + 5);
	}
	return found;
}

/* /dev/shm: statfs live, the mount options in a recorded tree. */
static int detect_shm(struct layers *ly, const struct sysroot *sr, char *text)
{
	long long v = -1, mem;
	const char *src = "/proc/self/mountinfo";
	struct statfs st;

	ly->shm_bytes = -1;
	if (sysroot_is_live(sr)) {
		if (statfs("/dev/shm", &st) < 0)
			return 0;
		ly->shm_bytes = (long long)st.f_blocks * (long long)st.f_bsize;
		evidence_add(&ly->evidence, "statfs /dev/shm",
			     "/dev/shm holds %lld MiB", ly->shm_bytes >> 20);
		return 1;
	}
	if (sysroot_read(sr, src, text, TEXT_MAX) >= 0)
		v = layers_parse_shm(text, false);
	if (v == -1) {
		src = "/proc/mounts";
		if (sysroot_read(sr, src, text, TEXT_MAX) < 0)
			return 0;
		v = layers_parse_shm(text, true);
	}
	if (v == -2 &&
	    sysroot_read(sr, "/proc/meminfo", text, TEXT_MAX) > 0 &&
	    sscanf(text, "MemTotal: %lld kB", &mem) == 1) {
		v = mem * 1024 / 2;
		evidence_add(&ly->evidence, src,
			     "/dev/shm is a tmpfs without size=: half of "
			     "memory, %lld MiB", v >> 20);
	} else if (v >= 0) {
		evidence_add(&ly->evidence, src, "/dev/shm holds %lld MiB",
			     v >> 20);
	}
	ly->shm_bytes = v >= 0 ? v : -1;
	return 1;
}

/* The rows are proc_route_parse's; the default route with the lowest
 * metric wins, and a connected route on its interface gives the subnet. */
int layers_parse_route(const char *text, struct layers_route *rt)
{
	const char *line = text;
	unsigned long best = ~0UL;
	struct {
		char ifname[IF_NAMESIZE];
		uint32_t dst, mask;
	} conn[64];
	int nconn = 0;

	memset(rt, 0, sizeof(*rt));
	if (strncmp(text, "Iface", 5) != 0) {
		errno = EINVAL;
		return -1;
	}
	while ((line = strchr(line, '\n')) != NULL) {
		struct proc_route row;

		line++;
		if (proc_route_parse(line, &row) < 0 ||
		    !(row.flags & PROC_ROUTE_UP))
			continue;
		if (row.dst == 0 && row.mask == 0) {
			if (rt->have && row.metric >= best)
				continue;
			best = row.metric;
			rt->have = true;
			copy_str(rt->ifname, sizeof(rt->ifname), row.dev);
			rt->has_gw =
				(row.flags & PROC_ROUTE_GATEWAY) && row.gw != 0;
			rt->gw.s_addr = row.gw;
		} else if (row.gw == 0 && nconn < 64) {
			copy_str(conn[nconn].ifname, IF_NAMESIZE, row.dev);
			conn[nconn].dst = row.dst;
			conn[nconn].mask = row.mask;
			nconn++;
		}
	}
	for (int i = 0; rt->have && rt->has_gw && i < nconn; i++) {
		if (strcmp(conn[i].ifname, rt->ifname) != 0 ||
		    (rt->gw.s_addr & conn[i].mask) != conn[i].dst)
			continue;
		rt->has_subnet = true;
		rt->net.s_addr = conn[i].dst;
		rt->prefixlen = (unsigned)__builtin_popcount(conn[i].mask);
		break;
	}
	return 0;
}

/* Every file is optional: what is missing only leaves its fact unknown. */
static int layers_read_facts(struct layers *ly, struct layers_facts *f,
                             const struct sysroot *sr)
{
	char *env1 = malloc(ENV_MAX), *text = malloc(TEXT_MAX);
	ssize_t n1;
	int nread = 0;
	bool k8s = false;
	enum layer_container cg = CONTAINER_NONE;

	memset(f, 0, sizeof(*f));
	if (env1 == NULL || text == NULL) {
		free(env1);
		free(text);
		return 0;
	}
	n1 = read_environ(sr, "/proc/1/environ", env1, ENV_MAX);
	if (n1 >= 0)
		nread++;
	if (sysroot_read_line(sr, "/proc/sys/kernel/osrelease", f->osrelease,
			      sizeof(f->osrelease)) >= 0)
		nread++;
	else
		f->osrelease[0] = '\0';

	f->container = detect_container(ly, sr, env1, n1);
	if (sysroot_read(sr, "/proc/1/cgroup", text, TEXT_MAX) >= 0) {
		nread++;
		cg = container_from_cgroup(ly, text, &k8s);
	}
	if (f->container == CONTAINER_NONE)
		f->container = cg;
	f->k8s = detect_k8s(ly, sr, env1, n1, text) || k8s;
	if (f->k8s)
		f->container = CONTAINER_KUBERNETES;

	f->run_wsl = sysroot_exists(sr, "/run/WSL");
	f->binfmt_interop =
		sysroot_exists(sr, "/proc/sys/fs/binfmt_misc/WSLInterop");
	if (n1 > 0 && environ_get(env1, (size_t)n1, "WSL_INTEROP") != NULL) {
		f->wsl_interop = true;
		evidence_add(&ly->evidence, "/proc/1/environ",
			     "WSL_INTEROP is set");
	} else if ((n1 = read_environ(sr, "/proc/self/environ", env1,
				      ENV_MAX)) > 0 &&
		   environ_get(env1, (size_t)n1, "WSL_INTEROP") != NULL) {
		f->wsl_interop = true;
		evidence_add(&ly->evidence, "/proc/self/environ",
			     "WSL_INTEROP is set");
	}
	if (f->run_wsl)
		evidence_add(&ly->evidence, "/run/WSL", "/run/WSL exists");

	nread += detect_virt(ly, sr);
	nread += detect_shm(ly, sr, text);
	if (sysroot_read(sr, "/proc/net/route", text, TEXT_MAX) >= 0 &&
	    layers_parse_route(text, &f->def) == 0) {
		nread++;
		char gw[INET_ADDRSTRLEN] = "on-link";

		if (f->def.has_gw)
			inet_ntop(AF_INET, &f->def.gw, gw, sizeof(gw));
		if (f->def.have)
			evidence_add(&ly->evidence, "/proc/net/route",
				     "default route via %s dev %s", gw,
				     f->def.ifname);
		else
			evidence_add(&ly->evidence, "/proc/net/route",
				     "no IPv4 default route");
	}
	free(env1);
	free(text);
	return nread;
}

/* The lowest-metric IPv4 default route of the main table from
 * route_defaults (netlink live, the recorded files otherwise), replacing
 * what /proc/net/route said; the connected subnet is kept when the route
 * leaves by the same interface. Returns 0, or -1 when none was found. */
static int route_default_v4(const struct sysroot *sr, struct layers_route *rt)
{
	struct route_info r[16];
	const struct route_info *best = NULL;
	struct in_addr gw;
	size_t n = 0;

	if (route_defaults(sr, r, sizeof(r) / sizeof(r[0]), &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (r[i].family == AF_INET &&
		    (best == NULL || r[i].metric < best->metric))
			best = &r[i];
	if (best == NULL || best->out_interface[0] == '\0')
		return -1;
	gw.s_addr = 0;
	if (best->gateway[0] != '\0' &&
	    inet_pton(AF_INET, best->gateway, &gw) != 1)
		return -1;
	if (!rt->have || strcmp(rt->ifname, best->out_interface) != 0 ||
	    rt->gw.s_addr != gw.s_addr)
		rt->has_subnet = false;
	rt->have = true;
	copy_str(rt->ifname, sizeof(rt->ifname), best->out_interface);
	rt->has_gw = gw.s_addr != 0;
	rt->gw = gw;
	return 0;
}

/* Files first, then the deciders; without a caller's list the replay of
 * /sys/class/net stands in. On failure nothing is left to free. */
int layers_detect(struct layers *ly, const struct sysroot *sr,
		  const struct iface_list *ifaces)
{
	struct layers_facts f;
	struct iface_list own = {0};
	int nread;

	memset(ly, 0, sizeof(*ly));
	ly->shm_bytes = -1;
	ly->evidence = json_array();
	ly->bridges = json_array();
	if (ly->evidence == NULL || ly->bridges == NULL) {
		layers_free(ly);
		errno = ENOMEM;
		return -1;
	}
	nread = layers_read_facts(ly, &f, sr);
	if (route_default_v4(sr, &f.def) == 0)
		nread++;
	/* no list from the caller: the recorded files (sysfs, /proc/net)
	 * still tell the kinds, links and addresses */
	if (ifaces == NULL && iface_replay(&own, sr) == 0)
		ifaces = &own;
	if (nread == 0 && ifaces == NULL) {
		layers_free(ly);
		errno = ENOENT;
		return -1;
	}
	layers_decide(ly, &f, ifaces);
	if (layers_bridges(ly, ifaces) < 0) {
		iface_list_free(&own);
		layers_free(ly);
		errno = ENOMEM;
		return -1;
	}
	iface_list_free(&own);
	return 0;
}

/* Safe on a struct that layers_detect failed on. */
void layers_free(struct layers *ly)
{
	json_decref(ly->evidence);
	json_decref(ly->bridges);
	ly->evidence = NULL;
	ly->bridges = NULL;
}
