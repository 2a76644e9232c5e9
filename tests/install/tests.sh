# tests/install/tests.sh - make install and make uninstall as a user or a
# packager runs them (sourced by tests/run.sh): a DESTDIR staging tree,
# the installed command run from another directory, models found beside
# it or through CYCLOPS_MODELS, a guest built with the installed kit and
# an embedding built with pkg-config.

test_install() {
	local d=$OUT/install stage root prefix=/opt/cyclops-test o missing=
	local build=$(dirname "$CYCLOPS")
	stage=$d/stage
	root=$stage$prefix
	mkdir -p "$d/elsewhere" "$d/models"
	if ! ${MAKE:-make} --no-print-directory -s O="$build" install DESTDIR="$stage" PREFIX=$prefix \
		>"$d/install.log" 2>&1; then
		not_ok "install" "make install failed: $(tail -3 "$d/install.log")"
		return
	fi
	for o in bin/cyclops lib/libcyclops.a include/cyclops.h lib/pkgconfig/cyclops.pc \
		share/cyclops/models/risc0.model share/cyclops/guest/program.mk \
		share/cyclops/guest/include/cyclops/track.h share/man/man1/cyclops.1 \
		share/bash-completion/completions/cyclops share/zsh/site-functions/_cyclops; do
		[ -f "$root/$o" ] || missing="$missing $o"
	done
	expect "install: binary, library, header, .pc, models, guest kit, man page, completions (missing:${missing:- none})" \
		[ -z "$missing" ]
	expect "install: the files land under DESTDIR/PREFIX, nothing elsewhere" \
		sh -c "[ \"\$(ls '$stage')\" = opt ] && [ -x '$root/bin/cyclops' ]"
	expect "install: cyclops.pc names PREFIX, not the staging root" \
		sh -c "grep -qx 'prefix=$prefix' '$root/lib/pkgconfig/cyclops.pc' && ! grep -q '$stage' '$root/lib/pkgconfig/cyclops.pc'"
	# from another directory: the models are found beside the binary
	(cd "$d/elsewhere" && "$root/bin/cyclops" run --model risc0 "$OLDPWD/guest/build/hello.elf" one) \
		>"$d/run.out" 2>"$d/run.err"
	expect "install: run --model risc0 from another directory works" \
		sh -c "[ $? = 0 ] && grep -q '(risc0)' '$d/run.err' && grep -qx 'argv\[1\] = one' '$d/run.out'"
	expect "install: cyclops models lists the installed models" \
		sh -c "cd '$d/elsewhere' && '$root/bin/cyclops' models | grep -q 'share/cyclops/models/zero-riscy.model'"
	# CYCLOPS_MODELS replaces the directories: a model of one's own is found,
	# the installed ones are not
	sed 's/^cost alu    1$/cost alu    2/' models/unit.model >"$d/models/double-alu.model"
	CYCLOPS_MODELS=$d/models "$root/bin/cyclops" run --model double-alu tests/count/build/count_straight.elf >/dev/null 2>"$d/env.err"
	expect "install: CYCLOPS_MODELS finds a model of one's own" grep -q '(double-alu)' "$d/env.err"
	CYCLOPS_MODELS=$d/models "$root/bin/cyclops" run --model risc0 guest/build/hello.elf >/dev/null 2>"$d/env.err"
	expect "install: with CYCLOPS_MODELS set, the installed models are not searched (251)" \
		sh -c "[ $? = 251 ] && grep -q \"no cost model 'risc0'\" '$d/env.err'"
	# a guest built with the installed kit, from another directory
	cp guest/examples/hello.c "$d/elsewhere/"
	if ${MAKE:-make} --no-print-directory -s -C "$d/elsewhere" -f "$root/share/cyclops/guest/program.mk" \
		hello.elf >"$d/kit.log" 2>&1; then
		# the same but for argv[0], the path each was run by
		(cd "$d/elsewhere" && "$root/bin/cyclops" run -q hello.elf x) 2>&1 | grep -v '^argv\[0\]' >"$d/kit.out"
		cy run -q guest/build/hello.elf x 2>&1 | grep -v '^argv\[0\]' >"$d/tree.out"
		expect "install: a guest built with the installed kit prints what the tree's does" \
			sh -c "[ -s '$d/kit.out' ] && cmp -s '$d/kit.out' '$d/tree.out'"
	else
		not_ok "install: the installed kit builds hello.c" "$(tail -2 "$d/kit.log")"
	fi
	# an embedding built with pkg-config against the installed library
	if PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage \
		cc ${CY_LDFLAGS:-} -o "$d/embed" examples/embed.c \
		$(PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage pkg-config --cflags --libs cyclops) \
		>"$d/cc.log" 2>&1; then
		"$d/embed" guest/build/hello.elf >/dev/null 2>"$d/embed.err"
		expect "install: the pkg-config build of examples/embed.c runs hello.elf" \
			grep -q '^embed: exited after .* a0 0, ' "$d/embed.err"
	else
		not_ok "install: pkg-config --cflags --libs cyclops builds examples/embed.c" "$(tail -2 "$d/cc.log")"
	fi
	${MAKE:-make} --no-print-directory -s O="$build" uninstall DESTDIR="$stage" PREFIX=$prefix >/dev/null 2>&1
	expect "uninstall: removes every file install put there" \
		[ -z "$(find "$stage" -type f)" ]
}

# make deb: dpkg-buildpackage builds a package whose files are the install's
# under /usr, whose Depends dpkg-shlibdeps found, and whose cyclops runs
# from the unpacked tree with its own models.
test_deb() {
	local d=$OUT/deb deb
	mkdir -p "$d"
	if ! command -v dpkg-buildpackage >/dev/null; then
		not_ok "deb" "dpkg-buildpackage (dpkg-dev) is not installed"
		return
	fi
	if ! ${MAKE:-make} --no-print-directory -s O="$d" deb >"$d/log" 2>&1; then
		not_ok "deb: make deb builds a package" "$(grep -m1 -i error "$d/log")"
		return
	fi
	deb=$(ls "$d"/deb/cyclops_*.deb)
	expect "deb: make deb builds $(basename "$deb")" [ -f "$deb" ]
	dpkg-deb -c "$deb" | awk '{print $6}' >"$d/files"
	expect "deb: the package has the command, library, header, .pc, models, kit, man page, completions under /usr" \
		sh -c "for f in usr/bin/cyclops usr/lib/libcyclops.a usr/include/cyclops.h usr/lib/pkgconfig/cyclops.pc \
			usr/share/cyclops/models/risc0.model usr/share/cyclops/guest/program.mk \
			usr/share/man/man1/cyclops.1 usr/share/bash-completion/completions/cyclops \
			usr/share/zsh/site-functions/_cyclops; do grep -qx \"./\$f\" '$d/files' || exit 1; done"
	# libelf1 from dpkg-shlibdeps (linked), libdw1 by name (opened with dlopen)
	expect "deb: Depends names libelf1 and libdw1" \
		sh -c "dpkg-deb -f '$deb' Depends | grep -q 'libelf1' && dpkg-deb -f '$deb' Depends | grep -q 'libdw1'"
	dpkg-deb -x "$deb" "$d/root"
	expect "deb: cyclops.pc says prefix=/usr" grep -qx 'prefix=/usr' "$d/root/usr/lib/pkgconfig/cyclops.pc"
	"$d/root/usr/bin/cyclops" run --model risc0 guest/build/hello.elf >/dev/null 2>"$d/run.err"
	expect "deb: the unpacked cyclops runs --model risc0 with the package's models" \
		sh -c "[ $? = 0 ] && grep -q '(risc0)' '$d/run.err'"
}
