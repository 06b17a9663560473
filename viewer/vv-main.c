// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vcap-view: wires the source, the capture thread, the slot and a sink. */
#include "vv-args.h"
#include "vv-capture.h"
#include "vv-dmabuf-src.h"
#include "vv-player.h"
#include "vv-sink.h"
#include "vv-testsrc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t vv_quit;

static void vv_on_signal(int sig)
{
	(void)sig;
	vv_quit = 1;
}

static void vv_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = vv_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static struct vcap_source *vv_open_source(const struct vv_options *o)
{
	struct vcap_source_config cfg = {
		.mode = o->mode,
		.num_buffers = o->buffers,
	};
	const struct vcap_source_ops *ops =
		vv_testsrc_path(o->device) ? &vv_testsrc_ops : NULL;
	struct vcap_source *src = vcap_source_open(ops, o->device, &cfg);

	if (!src) {
		const char *why = vcap_last_error();

		/* Our own source leaves errno, not the library's message. */
		if (!*why)
			why = errno == EINVAL ?
				      "the built-in source cannot produce that mode" :
				      strerror(errno);
		fprintf(stderr, "vcap-view: %s%s%s\n",
			strstr(why, o->device) ? "" : o->device,
			strstr(why, o->device) ? "" : ": ", why);
	}
	return src;
}

/*
 * -v: how a vcap board's frames reach the V4L2 buffers, as vcap-stream
 * -v says it.  Other drivers (and the VRAM node, read in place) do not
 * say, and get no line.
 */
static void vv_print_transfer(const struct vv_options *o,
			      const struct vcap_source *src)
{
	enum vcap_transfer t;

	if (strcmp(vcap_source_kind(src), "v4l2") ||
	    vcap_transfer_query(NULL, o->device, &t) < 0) {
		vcap_clear_error();
		return;
	}
	if (t == VCAP_TRANSFER_DMA)
		printf("vcap-view: %s: transfer: dma (the board writes into the buffers)\n",
		       o->device);
	else if (t == VCAP_TRANSFER_COPY)
		printf("vcap-view: %s: transfer: copy (the driver copies each frame)\n",
		       o->device);
}

/* Buffers the display exports for the capture, as libvcap's default. */
#define VV_SCANOUT_BUFFERS	4

/*
 * The KMS output's zero-copy path: the V4L2 source opened again to
 * capture into buffers the display exports and scans out.  Returns the
 * source to use: that one, or src as it was, with -v saying why.
 */
static struct vcap_source *vv_try_scanout(const struct vv_options *o,
					  struct vcap_source *src,
					  struct vv_sink *sink)
{
	struct vcap_source_config cfg = {
		.mode = src->mode,
		.num_buffers = o->buffers,
	};
	struct vcap_source *zsrc;
	unsigned int count = o->buffers ? o->buffers : VV_SCANOUT_BUFFERS;
	struct vv_scanout *so;
	char why[400];

	if (!sink->ops->export_buffers)
		return src;
	if (o->overlay) {
		snprintf(why, sizeof(why),
			 "the overlay is drawn into the frame, which a buffer scanned out as the capture wrote it cannot have");
		goto fallback;
	}
	if (strcmp(vcap_source_kind(src), "v4l2")) {
		snprintf(why, sizeof(why),
			 "a %s source, not V4L2: only V4L2 captures into the display's buffers",
			 vcap_source_kind(src));
		goto fallback;
	}
	zsrc = vcap_source_open(&vv_dmabuf_src_ops, o->device, &cfg);
	if (!zsrc) {
		snprintf(why, sizeof(why), "%s", vcap_last_error());
		goto fallback;
	}
	if (vv_dmabuf_src_check(zsrc, &count, why, sizeof(why)))
		goto err_close;
	so = sink->ops->export_buffers(sink, &zsrc->mode, count);
	if (!so) {
		snprintf(why, sizeof(why), "%s", sink->error);
		goto err_close;
	}
	vv_dmabuf_src_attach(zsrc, so);
	vcap_source_close(src);
	if (o->verbose)
		printf("vcap-view: %s: no copy: the capture fills %u buffers the display scans out\n",
		       sink->ops->name, so->count);
	return zsrc;

err_close:
	vcap_source_close(zsrc);
fallback:
	if (o->verbose)
		printf("vcap-view: %s: one copy per frame: %s\n",
		       sink->ops->name, why);
	return src;
}

int main(int argc, char **argv)
{
	struct vv_options opt;
	struct vcap_source *src;
	struct vv_slot slot;
	struct vv_capture capture = { 0 };
	struct vv_player player;
	struct vv_sink sink = { 0 };
	struct vv_sink_config scfg = { 0 };
	char modestr[64];
	int status = 1;

	switch (vv_args_parse(argc, argv, &opt, stdout, stderr)) {
	case VV_ARGS_EXIT:
		return 0;
	case VV_ARGS_ERROR:
		return 2;
	}
	vv_signals();
	/* A script watching -v sees each signal change as it happens. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	src = vv_open_source(&opt);
	if (!src)
		return 1;
	if (opt.verbose)
		vv_print_transfer(&opt, src);
	if (vv_slot_init(&slot)) {
		fprintf(stderr, "vcap-view: out of memory\n");
		goto out_source;
	}

	sink.ops = opt.output == VV_OUTPUT_KMS ? &vv_sink_kms_ops :
						 &vv_sink_sdl_ops;
	scfg.title = opt.device;
	scfg.width = src->mode.width;
	scfg.height = src->mode.height;
	scfg.fullscreen = opt.fullscreen;
	scfg.card = opt.card;
	if (sink.ops->init(&sink, &scfg)) {
		fprintf(stderr, "vcap-view: %s\n", sink.error);
		goto out_sink;
	}
	src = vv_try_scanout(&opt, src, &sink);
	if (vv_capture_init(&capture, src, &slot)) {
		fprintf(stderr, "vcap-view: out of memory\n");
		goto out_sink;
	}
	if (vv_player_init(&player, &opt, &sink, &slot, &capture, &vv_quit)) {
		fprintf(stderr, "vcap-view: out of memory\n");
		goto out_player;
	}
	if (vv_player_prepare(&player, &src->mode))
		goto out_player;
	if (vv_capture_start(&capture)) {
		fprintf(stderr, "vcap-view: %s\n", capture.error);
		goto out_player;
	}
	/* Without a signal the mode is the one before: not worth saying. */
	if (opt.verbose)
		printf("vcap-view: %s: %s, %s output\n", opt.device,
		       vcap_source_has_signal(src) ?
			       vcap_mode_str(&src->mode, modestr,
					     sizeof(modestr)) :
			       "no signal",
		       sink.ops->name);
	status = vv_player_run(&player);
out_player:
	vv_player_destroy(&player);
	vv_capture_stop(&capture);
out_sink:
	sink.ops->stop(&sink);
	sink.ops->destroy(&sink);
	vv_capture_destroy(&capture);
	vv_slot_destroy(&slot);
out_source:
	vcap_source_close(src);
	return status;
}
