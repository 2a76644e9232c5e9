# install.mk - make install / make uninstall, GNU style: PREFIX (default
# /usr/local) and DESTDIR (a staging root, for packages). What goes where:
# docs/install.md. The man page and the completions are written by the
# built cyclops from its option tables (cyclops --man, --completion).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
INSTALL ?= install

# The guest kit: the sources a cross compiler needs to build guests, the
# examples and program.mk (guest/README.md), not what a build left there.
GUEST_KIT = $(shell find guest -type f ! -path '*/build/*' ! -name '*.[od]')

$(O)/cyclops.1: $(CYCLOPS)
	$(CYCLOPS) --man >$@
$(O)/cyclops.bash: $(CYCLOPS)
	$(CYCLOPS) --completion bash >$@
$(O)/_cyclops: $(CYCLOPS)
	$(CYCLOPS) --completion zsh >$@

install-files: $(CYCLOPS) $(LIBCYCLOPS) $(O)/cyclops.1 $(O)/cyclops.bash $(O)/_cyclops

cyclops: $(O)/cyclops.1 $(O)/cyclops.bash $(O)/_cyclops

install: install-files
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(DATADIR)/cyclops/models $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions $(DESTDIR)$(DATADIR)/zsh/site-functions
	$(INSTALL) -m 755 $(CYCLOPS) $(DESTDIR)$(BINDIR)/cyclops
	$(INSTALL) -m 644 $(LIBCYCLOPS) $(DESTDIR)$(LIBDIR)/libcyclops.a
	$(INSTALL) -m 644 include/cyclops.h include/cyclops_samples.h $(DESTDIR)$(INCLUDEDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(shell sed -n 's/^#define CY_VERSION "\(.*\)"/\1/p' include/cyclops.h)|' \
		-e 's|@LIBS@|$(LDLIBS)|' mk/cyclops.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/cyclops.pc
	$(INSTALL) -m 644 models/*.model $(DESTDIR)$(DATADIR)/cyclops/models
	for f in $(GUEST_KIT); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(DATADIR)/cyclops/$$f || exit 1; done
	$(INSTALL) -m 644 $(O)/cyclops.1 $(DESTDIR)$(MANDIR)/man1/cyclops.1
	$(INSTALL) -m 644 $(O)/cyclops.bash $(DESTDIR)$(DATADIR)/bash-completion/completions/cyclops
	$(INSTALL) -m 644 $(O)/_cyclops $(DESTDIR)$(DATADIR)/zsh/site-functions/_cyclops

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cyclops $(DESTDIR)$(LIBDIR)/libcyclops.a \
		$(DESTDIR)$(LIBDIR)/pkgconfig/cyclops.pc \
		$(DESTDIR)$(INCLUDEDIR)/cyclops.h $(DESTDIR)$(INCLUDEDIR)/cyclops_samples.h \
		$(DESTDIR)$(MANDIR)/man1/cyclops.1 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/cyclops \
		$(DESTDIR)$(DATADIR)/zsh/site-functions/_cyclops
	rm -rf $(DESTDIR)$(DATADIR)/cyclops

.PHONY: install install-files uninstall

# make deb: a Debian package built by dpkg-buildpackage from a copy of the
# tracked files (packaging/debian/ as its debian/), in $(O)/deb/; the
# changelog is written here so that CY_VERSION stays the one version.
CY_VERSION_TEXT = $(shell sed -n 's/^\#define CY_VERSION "\(.*\)"/\1/p' include/cyclops.h)
deb:
	rm -rf $(O)/deb && mkdir -p $(O)/deb/cyclops
	git ls-files -z | xargs -0 tar -cf - | tar -xf - -C $(O)/deb/cyclops
	cp -r packaging/debian $(O)/deb/cyclops/debian
	printf 'cyclops (%s) unstable; urgency=medium\n\n  * Built from %s.\n\n -- cyclops developers <cyclops@invalid>  %s\n' \
		'$(CY_VERSION_TEXT)' "$$(git describe --always --dirty)" "$$(date -R)" \
		>$(O)/deb/cyclops/debian/changelog
	cd $(O)/deb/cyclops && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -b -us -uc
	@ls $(O)/deb/*.deb

.PHONY: deb
