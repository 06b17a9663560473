// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The KMS sink: a connected connector at its preferred mode, two dumb
 * XRGB8888 buffers flipped on vblank, the previous CRTC restored on exit.
 * Where the display exports its buffers and has a mode of the frame's
 * size, the capture fills buffers the display scans out (vv-scanout.h)
 * and the sink only flips to them.
 */
#include "vv-sink.h"
#include "vv-convert.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#define VV_KMS_MAX_CARDS	16
#define VV_KMS_FLIP_WAIT_MS	1000

struct vv_kms_buffer {
	uint32_t handle;
	uint32_t fb_id;
	uint32_t pitch;
	uint64_t size;
	uint32_t *map;
};

struct vv_kms {
	int fd;
	char card[64];
	uint32_t connector_id;
	uint32_t crtc_id;
	drmModeModeInfo mode;
	drmModeCrtc *saved_crtc;	/* what to restore on exit */
	struct vv_kms_buffer buf[2];
	int front;			/* index of the buffer on screen */
	bool flip_pending;		/* set by us, cleared by the event */
	bool use_setcrtc;		/* the driver cannot page flip */
	uint32_t *xmap;			/* column map, mode width entries */
	/* Zero copy: the capture's buffers, scanned out as they are. */
	struct vv_scanout *so;		/* NULL: every frame is copied */
	struct vv_kms_buffer zc[VV_SCANOUT_MAX];
	int flip_to;			/* the pending flip's zc index, or -1 */
	int zc_front;			/* zc index on screen, or -1 */
	int requeue_errno;		/* queueing a buffer off screen failed */
};

static int vv_kms_create_buffer(struct vv_kms *k, struct vv_kms_buffer *b)
{
	struct drm_mode_create_dumb create = {
		.width = k->mode.hdisplay,
		.height = k->mode.vdisplay,
		.bpp = 32,
	};
	struct drm_mode_map_dumb map = { 0 };
	void *p;

	if (drmIoctl(k->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -1;
	b->handle = create.handle;
	b->pitch = create.pitch;
	b->size = create.size;
	if (drmModeAddFB(k->fd, k->mode.hdisplay, k->mode.vdisplay, 24, 32,
			 b->pitch, b->handle, &b->fb_id))
		return -1;
	map.handle = b->handle;
	if (drmIoctl(k->fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		return -1;
	p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 map.offset);
	if (p == MAP_FAILED)
		return -1;
	b->map = p;
	memset(b->map, 0, b->size);
	return 0;
}

static void vv_kms_destroy_buffer(struct vv_kms *k, struct vv_kms_buffer *b)
{
	struct drm_mode_destroy_dumb destroy = { .handle = b->handle };

	if (b->map)
		munmap(b->map, b->size);
	if (b->fb_id)
		drmModeRmFB(k->fd, b->fb_id);
	if (b->handle)
		drmIoctl(k->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(b, 0, sizeof(*b));
}

/* A CRTC the connector can drive: its current one, or any free match. */
static uint32_t vv_kms_find_crtc(int fd, drmModeRes *res,
				 drmModeConnector *conn)
{
	drmModeEncoder *enc;
	uint32_t crtc = 0;

	if (conn->encoder_id) {
		enc = drmModeGetEncoder(fd, conn->encoder_id);
		if (enc) {
			crtc = enc->crtc_id;
			drmModeFreeEncoder(enc);
			if (crtc)
				return crtc;
		}
	}
	for (int i = 0; i < conn->count_encoders && !crtc; i++) {
		enc = drmModeGetEncoder(fd, conn->encoders[i]);
		if (!enc)
			continue;
		for (int c = 0; c < res->count_crtcs; c++)
			if (enc->possible_crtcs & (1u << c)) {
				crtc = res->crtcs[c];
				break;
			}
		drmModeFreeEncoder(enc);
	}
	return crtc;
}

/* The first connected connector with a mode; 0 or -1. */
static int vv_kms_pick_output(struct vv_kms *k)
{
	drmModeRes *res = drmModeGetResources(k->fd);
	int ret = -1;

	if (!res)
		return -1;
	for (int i = 0; i < res->count_connectors && ret; i++) {
		drmModeConnector *conn =
			drmModeGetConnector(k->fd, res->connectors[i]);

		if (!conn)
			continue;
		if (conn->connection == DRM_MODE_CONNECTED &&
		    conn->count_modes > 0) {
			k->mode = conn->modes[0];
			for (int m = 0; m < conn->count_modes; m++)
				if (conn->modes[m].type &
				    DRM_MODE_TYPE_PREFERRED) {
					k->mode = conn->modes[m];
					break;
				}
			k->crtc_id = vv_kms_find_crtc(k->fd, res, conn);
			k->connector_id = conn->connector_id;
			if (k->crtc_id)
				ret = 0;
		}
		drmModeFreeConnector(conn);
	}
	drmModeFreeResources(res);
	return ret;
}

static int vv_kms_open_card(struct vv_kms *k, const char *path)
{
	uint64_t dumb = 0;

	k->fd = open(path, O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		return -1;
	snprintf(k->card, sizeof(k->card), "%s", path);
	if (drmGetCap(k->fd, DRM_CAP_DUMB_BUFFER, &dumb) || !dumb ||
	    vv_kms_pick_output(k)) {
		close(k->fd);
		k->fd = -1;
		errno = ENODEV;
		return -1;
	}
	return 0;
}

static int vv_kms_init(struct vv_sink *s, const struct vv_sink_config *cfg)
{
	struct vv_kms *k = calloc(1, sizeof(*k));
	char path[64];

	if (!k)
		return vv_sink_fail(s, "out of memory");
	k->fd = -1;
	k->flip_to = -1;
	k->zc_front = -1;
	s->priv = k;
	if (cfg->card) {
		if (vv_kms_open_card(k, cfg->card))
			return vv_sink_fail(s, "%s: %s", cfg->card,
					    errno == ENODEV ?
						    "no connected output with dumb buffers" :
						    strerror(errno));
	} else {
		for (int i = 0; i < VV_KMS_MAX_CARDS && k->fd < 0; i++) {
			snprintf(path, sizeof(path), "/dev/dri/card%d", i);
			vv_kms_open_card(k, path);
		}
		if (k->fd < 0)
			return vv_sink_fail(s,
					    "no display: no /dev/dri/card* with a connected output");
	}
	k->saved_crtc = drmModeGetCrtc(k->fd, k->crtc_id);
	for (int i = 0; i < 2; i++)
		if (vv_kms_create_buffer(k, &k->buf[i]))
			return vv_sink_fail(s, "%s: dumb buffer: %s", k->card,
					    strerror(errno));
	k->xmap = calloc(k->mode.hdisplay, sizeof(*k->xmap));
	if (!k->xmap)
		return vv_sink_fail(s, "out of memory");
	if (drmModeSetCrtc(k->fd, k->crtc_id, k->buf[0].fb_id, 0, 0,
			   &k->connector_id, 1, &k->mode))
		return vv_sink_fail(s, "%s: mode setting %ux%u: %s", k->card,
				    k->mode.hdisplay, k->mode.vdisplay,
				    strerror(errno));
	k->front = 0;
	return 0;
}

/*
 * Drivers whose exported dumb buffers stay put while the capture maps
 * them and the display flips to them.  bochs-drm exports on 6.12, but
 * its buffers are VRAM-helper objects that move to VRAM when pinned for
 * scan-out: a flip to one the capture had mapped corrupted TTM's LRU
 * list (a kernel BUG in ttm_resource_move_to_lru_tail).
 */
static const char *const vv_kms_scanout_drivers[] = { "virtio_gpu" };

/* Whether the card's driver is one of vv_kms_scanout_drivers; why not. */
static bool vv_kms_scanout_driver(struct vv_kms *k, char *name, size_t size)
{
	drmVersion *v = drmGetVersion(k->fd);
	bool ok = false;

	snprintf(name, size, "%s", v && v->name ? v->name : "?");
	drmFreeVersion(v);
	for (size_t i = 0; i < sizeof(vv_kms_scanout_drivers) /
				       sizeof(vv_kms_scanout_drivers[0]);
	     i++)
		if (!strcmp(name, vv_kms_scanout_drivers[i]))
			ok = true;
	return ok;
}

/* The DRM format whose bytes are those of a V4L2 RGB format; 0 if none. */
static uint32_t vv_kms_drm_format(uint32_t fourcc)
{
	/* V4L2 names the byte order from the last byte, DRM from the word. */
	if (fourcc == vcap_fourcc_parse("XBGR32"))
		return DRM_FORMAT_XRGB8888;	/* B, G, R, X */
	if (fourcc == vcap_fourcc_parse("XRGB32"))
		return DRM_FORMAT_BGRX8888;	/* X, R, G, B */
	return 0;
}

/* The connector's first mode of exactly width x height; 0 or -1. */
static int vv_kms_find_mode(struct vv_kms *k, uint32_t width,
			    uint32_t height, drmModeModeInfo *out)
{
	drmModeConnector *conn = drmModeGetConnector(k->fd, k->connector_id);
	int ret = -1;

	if (!conn)
		return -1;
	for (int m = 0; m < conn->count_modes && ret; m++)
		if (conn->modes[m].hdisplay == width &&
		    conn->modes[m].vdisplay == height) {
			*out = conn->modes[m];
			ret = 0;
		}
	drmModeFreeConnector(conn);
	return ret;
}

/* The dumb buffers made again for mode, and mode set; 0 or -1 (errno). */
static int vv_kms_use_mode(struct vv_kms *k, const drmModeModeInfo *mode)
{
	uint32_t *xmap = calloc(mode->hdisplay, sizeof(*xmap));

	if (!xmap)
		return -1;
	free(k->xmap);
	k->xmap = xmap;
	for (int i = 0; i < 2; i++)
		vv_kms_destroy_buffer(k, &k->buf[i]);
	k->mode = *mode;
	k->front = 0;
	for (int i = 0; i < 2; i++)
		if (vv_kms_create_buffer(k, &k->buf[i]))
			return -1;
	return drmModeSetCrtc(k->fd, k->crtc_id, k->buf[0].fb_id, 0, 0,
			      &k->connector_id, 1, &k->mode);
}

/* Show mode from now on; on failure the mode before stays. */
static int vv_kms_set_mode(struct vv_sink *s, const drmModeModeInfo *mode)
{
	struct vv_kms *k = s->priv;
	drmModeModeInfo old = k->mode;

	if (mode->hdisplay == old.hdisplay &&
	    mode->vdisplay == old.vdisplay && mode->clock == old.clock)
		return 0;
	if (!vv_kms_use_mode(k, mode))
		return 0;
	vv_sink_fail(s, "%s: mode setting %ux%u: %s", k->card,
		     mode->hdisplay, mode->vdisplay, strerror(errno));
	vv_kms_use_mode(k, &old);
	return -1;
}

/* One dumb buffer for frames of mode, exported and made a framebuffer. */
static int vv_kms_create_scanout(struct vv_sink *s, struct vv_kms_buffer *b,
				 struct vv_scanout_buffer *sb,
				 const struct vcap_mode *mode, uint32_t format)
{
	struct vv_kms *k = s->priv;
	struct drm_mode_create_dumb create = {
		.width = mode->width,
		.height = mode->height,
		.bpp = 32,
	};
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	char cc[VCAP_FOURCC_STR_LEN];
	void *p;

	if (drmIoctl(k->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return vv_sink_fail(s, "%s: dumb buffer: %s", k->card,
				    strerror(errno));
	b->handle = create.handle;
	b->pitch = create.pitch;
	b->size = create.size;
	if (b->pitch != mode->bytesperline || b->size < mode->sizeimage)
		return vv_sink_fail(s,
				    "%s: a dumb buffer has lines of %u bytes, %llu in all; the capture's frames %u and %u",
				    k->card, b->pitch,
				    (unsigned long long)b->size,
				    mode->bytesperline, mode->sizeimage);
	if (drmPrimeHandleToFD(k->fd, b->handle, DRM_CLOEXEC | DRM_RDWR,
			       &sb->fd))
		return vv_sink_fail(s, "%s: drmPrimeHandleToFD: %s", k->card,
				    strerror(errno));
	handles[0] = b->handle;
	pitches[0] = b->pitch;
	if (drmModeAddFB2(k->fd, mode->width, mode->height, format, handles,
			  pitches, offsets, &b->fb_id, 0))
		return vv_sink_fail(s, "%s: drmModeAddFB2(%s): %s", k->card,
				    vcap_fourcc_str(mode->fourcc, cc),
				    strerror(errno));
	map.handle = b->handle;
	if (drmIoctl(k->fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		return vv_sink_fail(s, "%s: map dumb buffer: %s", k->card,
				    strerror(errno));
	p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 map.offset);
	if (p == MAP_FAILED)
		return vv_sink_fail(s, "%s: mmap: %s", k->card,
				    strerror(errno));
	b->map = p;
	sb->map = p;
	sb->length = b->size;
	return 0;
}

/* The zero-copy buffers gone; none may be on screen. */
static void vv_kms_drop_scanout(struct vv_kms *k)
{
	struct vv_scanout *so = k->so;

	if (!so)
		return;
	for (int i = 0; i < VV_SCANOUT_MAX; i++) {
		if (so->buf[i].fd >= 0)
			close(so->buf[i].fd);
		vv_kms_destroy_buffer(k, &k->zc[i]);
	}
	vv_scanout_destroy(so);
	free(so);
	k->so = NULL;
	k->zc_front = -1;
}

/*
 * Buffers the capture fills and the plane scans out as they are: an RGB
 * format the plane takes (drmModeAddFB2 says), a mode of the frame's
 * size (set now), lines as long as the capture's, and dumb buffers the
 * driver exports by PRIME.
 */
static struct vv_scanout *vv_kms_export_buffers(struct vv_sink *s,
						const struct vcap_mode *mode,
						unsigned int count)
{
	struct vv_kms *k = s->priv;
	uint32_t format = vv_kms_drm_format(mode->fourcc);
	char cc[VCAP_FOURCC_STR_LEN], driver[64];
	drmModeModeInfo dm;
	uint64_t prime = 0;
	struct vv_scanout *so;

	if (!format) {
		vv_sink_fail(s, "%s frames are not a format a plane scans out (XBGR32 or XRGB32 are)",
			     vcap_fourcc_str(mode->fourcc, cc));
		return NULL;
	}
	if (!vv_kms_scanout_driver(k, driver, sizeof(driver))) {
		vv_sink_fail(s, "%s: %s is not a driver known to scan out its exported buffers safely while the capture maps them (virtio_gpu is)",
			     k->card, driver);
		return NULL;
	}
	if (drmGetCap(k->fd, DRM_CAP_PRIME, &prime) ||
	    !(prime & DRM_PRIME_CAP_EXPORT)) {
		vv_sink_fail(s, "%s: the driver exports no buffers (no PRIME export)",
			     k->card);
		return NULL;
	}
	if (vv_kms_find_mode(k, mode->width, mode->height, &dm)) {
		vv_sink_fail(s, "%s: the connector has no %ux%u mode", k->card,
			     mode->width, mode->height);
		return NULL;
	}
	so = calloc(1, sizeof(*so));
	if (!so) {
		vv_sink_fail(s, "out of memory");
		return NULL;
	}
	vv_scanout_init(so);
	so->mode = *mode;
	k->so = so;
	if (count > VV_SCANOUT_MAX)
		count = VV_SCANOUT_MAX;
	for (unsigned int i = 0; i < count; i++) {
		so->count = i + 1;
		if (vv_kms_create_scanout(s, &k->zc[i], &so->buf[i], mode,
					  format))
			goto err_drop;
	}
	if (vv_kms_set_mode(s, &dm))
		goto err_drop;
	return so;

err_drop:
	vv_kms_drop_scanout(k);
	return NULL;
}

/*
 * The display scans out dumb buffers the viewer draws into: each frame is
 * converted and scaled into one, the only copy of its pixels.  Or, with
 * the buffers exported for frames of this mode, the capture's own.
 */
static int vv_kms_start(struct vv_sink *s, const struct vcap_mode *mode)
{
	struct vv_kms *k = s->priv;
	char cc[VCAP_FOURCC_STR_LEN];

	if (k->so && k->so->mode.fourcc == mode->fourcc &&
	    k->so->mode.width == mode->width &&
	    k->so->mode.height == mode->height &&
	    k->so->mode.bytesperline == mode->bytesperline) {
		snprintf(s->path, sizeof(s->path),
			 "kms dma-buf scan-out (capture into the display's buffers), 0 copies");
		return 0;
	}
	if (!vv_convert_row_fn(mode->fourcc))
		return vv_sink_fail(s, "unsupported format %s",
				    vcap_fourcc_str(mode->fourcc, cc));
	snprintf(s->path, sizeof(s->path),
		 "kms dumb-buffer copy (%s converted to XRGB8888)",
		 vcap_fourcc_str(mode->fourcc, cc));
	return 0;
}

/* The display shows zc buffer index (-1: a dumb buffer) from now on. */
static void vv_kms_now_showing(struct vv_kms *k, int index)
{
	k->zc_front = index;
	if (k->so && vv_scanout_shown(k->so, index) && !k->requeue_errno)
		k->requeue_errno = errno ? errno : EIO;
}

static void vv_kms_flip_done(int fd, unsigned int seq, unsigned int sec,
			     unsigned int usec, void *data)
{
	struct vv_kms *k = data;

	(void)fd;
	(void)seq;
	(void)sec;
	(void)usec;
	k->flip_pending = false;
	vv_kms_now_showing(k, k->flip_to);
}

/* Handle the page flip events waiting, for at most timeout_ms. */
static void vv_kms_handle_events(struct vv_kms *k, int timeout_ms)
{
	drmEventContext ev = {
		.version = 2,
		.page_flip_handler = vv_kms_flip_done,
	};
	struct pollfd pfd = { .fd = k->fd, .events = POLLIN };

	while (k->flip_pending && poll(&pfd, 1, timeout_ms) > 0) {
		drmHandleEvent(k->fd, &ev);
		timeout_ms = 0;
	}
}

/*
 * Put fb_id on screen, on vblank when the driver can flip; zc is its
 * index among the zero-copy buffers, or -1.
 */
static int vv_kms_flip_fb(struct vv_sink *s, uint32_t fb_id, int zc)
{
	struct vv_kms *k = s->priv;

	k->flip_to = zc;
	if (!k->use_setcrtc &&
	    drmModePageFlip(k->fd, k->crtc_id, fb_id,
			    DRM_MODE_PAGE_FLIP_EVENT, k) == 0) {
		k->flip_pending = true;
		return 0;
	}
	k->use_setcrtc = true;
	if (drmModeSetCrtc(k->fd, k->crtc_id, fb_id, 0, 0, &k->connector_id,
			   1, &k->mode))
		return vv_sink_fail(s, "%s: set CRTC: %s", k->card,
				    strerror(errno));
	vv_kms_now_showing(k, zc);
	return 0;
}

/* Put buffer[back] on screen. */
static int vv_kms_flip(struct vv_sink *s, int back)
{
	struct vv_kms *k = s->priv;

	if (vv_kms_flip_fb(s, k->buf[back].fb_id, -1))
		return -1;
	k->front = back;
	return 0;
}

/*
 * A frame the capture wrote into zc buffer i: flipped to, no copy.  The
 * flip is waited for, so that the buffer leaving the screen goes back to
 * the capture before the next frame is due.
 */
static int vv_kms_show_scanout(struct vv_sink *s, int i)
{
	struct vv_kms *k = s->priv;

	vv_kms_handle_events(k, VV_KMS_FLIP_WAIT_MS);
	if (!k->flip_pending && k->zc_front != i &&
	    vv_kms_flip_fb(s, k->zc[i].fb_id, i))
		return -1;
	vv_kms_handle_events(k, VV_KMS_FLIP_WAIT_MS);
	if (k->flip_pending)
		return vv_sink_fail(s, "%s: page flip did not complete",
				    k->card);
	if (k->requeue_errno)
		return vv_sink_fail(s,
				    "%s: a buffer that left the screen could not be queued for capture: %s",
				    k->card, strerror(k->requeue_errno));
	return 0;
}

static int vv_kms_show(struct vv_sink *s, struct vv_frame *f,
		       const struct vv_overlay_bitmap *ov)
{
	struct vv_kms *k = s->priv;
	int back = !k->front;
	struct vv_kms_buffer *b = &k->buf[back];

	if (!f)
		return 0;	/* the buffer on screen stays valid */
	if (k->so && vv_scanout_index(k->so, f->data) >= 0)
		return vv_kms_show_scanout(s, vv_scanout_index(k->so, f->data));
	/* Never draw into a buffer the display may still scan out. */
	vv_kms_handle_events(k, VV_KMS_FLIP_WAIT_MS);
	if (k->flip_pending)
		return vv_sink_fail(s, "%s: page flip did not complete",
				    k->card);
	if (vv_convert_fit(f, b->map, k->mode.hdisplay, k->mode.vdisplay,
			   b->pitch, k->xmap))
		return vv_sink_fail(s, "frame does not match its format");
	f->copies++;
	/* The back buffer is not on screen: a torn frame just stays there. */
	if (!vv_frame_intact(f))
		return VV_SINK_TORN;
	if (ov)
		vv_overlay_blend(ov, b->map, k->mode.hdisplay, k->mode.vdisplay,
				 b->pitch);
	return vv_kms_flip(s, back);
}

static int vv_kms_show_card(struct vv_sink *s,
			    const struct vv_overlay_bitmap *card)
{
	struct vv_kms *k = s->priv;
	int back = !k->front;
	struct vv_kms_buffer *b = &k->buf[back];
	int w = k->mode.hdisplay, h = k->mode.vdisplay;
	int x = card->width < w ? (w - card->width) / 2 : 0;
	int y = card->height < h ? (h - card->height) / 2 : 0;

	vv_kms_handle_events(k, VV_KMS_FLIP_WAIT_MS);
	if (k->flip_pending)
		return vv_sink_fail(s, "%s: page flip did not complete",
				    k->card);
	memset(b->map, 0, b->size);
	/* Centred; a card wider than the screen is clipped, not scaled. */
	vv_overlay_blend(card,
			 (uint32_t *)((uint8_t *)b->map + (size_t)y * b->pitch) +
				 x,
			 w - x, h - y, b->pitch);
	return vv_kms_flip(s, back);
}

static int vv_kms_set_title(struct vv_sink *s, const char *title)
{
	(void)s;
	(void)title;
	return 0;	/* a console has no title */
}

static int vv_kms_poll(struct vv_sink *s, enum vv_action *actions, int max)
{
	struct vv_kms *k = s->priv;

	(void)actions;
	(void)max;
	vv_kms_handle_events(k, 0);
	return 0;
}

static int vv_kms_set_fullscreen(struct vv_sink *s, bool on)
{
	(void)s;
	(void)on;
	return 0;	/* a KMS output is always the whole screen */
}

static int vv_kms_snapshot(struct vv_sink *s, const char *path)
{
	struct vv_kms *k = s->priv;
	struct vv_kms_buffer *b = &k->buf[k->front];
	struct vcap_mode zm;
	struct vcap_mode m = {
		/* XRGB8888 in memory is V4L2's XBGR32: B, G, R, X. */
		.fourcc = vcap_fourcc_parse("XBGR32"),
		.width = k->mode.hdisplay,
		.height = k->mode.vdisplay,
		.bytesperline = b->pitch,
		.sizeimage = b->pitch * k->mode.vdisplay,
	};

	if (k->so && k->zc_front >= 0) {
		/* The capture's own frame, in its own format. */
		zm = k->so->mode;
		zm.sizeimage = zm.bytesperline * zm.height;
		if (vcap_png_write(path, &zm, k->so->buf[k->zc_front].map,
				   zm.sizeimage))
			return vv_sink_fail(s, "%s", vcap_last_error());
		return 0;
	}
	if (vcap_png_write(path, &m, b->map, m.sizeimage))
		return vv_sink_fail(s, "%s", vcap_last_error());
	return 0;
}

static void vv_kms_stop(struct vv_sink *s)
{
	struct vv_kms *k = s->priv;

	if (k && k->fd >= 0)
		vv_kms_handle_events(k, VV_KMS_FLIP_WAIT_MS);
}

static void vv_kms_destroy(struct vv_sink *s)
{
	struct vv_kms *k = s->priv;
	drmModeCrtc *c;

	if (!k)
		return;
	if (k->fd >= 0) {
		vv_kms_handle_events(k, VV_KMS_FLIP_WAIT_MS);
		c = k->saved_crtc;
		if (c && c->buffer_id && c->mode_valid)
			drmModeSetCrtc(k->fd, c->crtc_id, c->buffer_id, c->x,
				       c->y, &k->connector_id, 1, &c->mode);
		else
			drmModeSetCrtc(k->fd, k->crtc_id, 0, 0, 0, NULL, 0,
				       NULL);
		for (int i = 0; i < 2; i++)
			vv_kms_destroy_buffer(k, &k->buf[i]);
		vv_kms_drop_scanout(k);
		close(k->fd);
	}
	if (k->saved_crtc)
		drmModeFreeCrtc(k->saved_crtc);
	free(k->xmap);
	free(k);
	s->priv = NULL;
}

const struct vv_sink_ops vv_sink_kms_ops = {
	.name = "kms",
	.init = vv_kms_init,
	.export_buffers = vv_kms_export_buffers,
	.start = vv_kms_start,
	.show = vv_kms_show,
	.show_card = vv_kms_show_card,
	.set_title = vv_kms_set_title,
	.poll = vv_kms_poll,
	.set_fullscreen = vv_kms_set_fullscreen,
	.snapshot = vv_kms_snapshot,
	.stop = vv_kms_stop,
	.destroy = vv_kms_destroy,
};
