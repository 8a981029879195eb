# shellcheck shell=bash
# The pinned agents (tests/agents/versions), installed with `npm install -g`
# into the test user's own prefix ~/.npm-global, as a user following the
# agents' instructions would; kept between runs and installed again only
# when a pin changes.  Sets NPG and HAVE_<agent> (1 when it can run here).

NPG=$U_HOME/.npm-global
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
echo "node $(node --version 2>/dev/null), npm $(npm --version 2>/dev/null)"

installed_version() { # PKG
	sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
		"$NPG/lib/node_modules/$1/package.json" 2>/dev/null | head -1
}

HAVE_CLAUDE=0 HAVE_CODEX=0 HAVE_GEMINI=0
want=()
while read -r spec; do
	case $spec in '' | '#'*) continue ;; esac
	pkg=${spec%@*} ver=${spec##*@}
	if [ "$pkg" = @google/gemini-cli ] && [ "$NODE_MAJOR" -lt 20 ]; then
		skip "gemini ($spec)" "it needs Node >= 20; this host's node is $(node --version)"
		continue
	fi
	case $pkg in
	@anthropic-ai/claude-code) HAVE_CLAUDE=1 ;;
	@openai/codex) HAVE_CODEX=1 ;;
	@google/gemini-cli) HAVE_GEMINI=1 ;;
	esac
	[ "$(installed_version "$pkg")" = "$ver" ] || want+=("$spec")
done <"$here/versions"

if [ ${#want[@]} -gt 0 ]; then
	# The host's npm may trust a CA of its own (a proxy's): a user prefix
	# does not read the host's npmrc, so say it on the command line.
	npm_args=(--prefix "$NPG" --no-fund --no-audit --no-update-notifier --loglevel=error)
	cafile=$(npm config get cafile 2>/dev/null)
	[ -f "$cafile" ] && npm_args+=(--cafile "$cafile")
	start=$SECONDS
	echo "installing ${want[*]} (npm install -g as $E2E_USER)..."
	if (cd "$U_HOME" && as_user env ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS} \
		${https_proxy:+https_proxy=$https_proxy} ${HTTPS_PROXY:+HTTPS_PROXY=$HTTPS_PROXY} \
		npm install -g "${npm_args[@]}" "${want[@]}"); then
		echo "installed in $((SECONDS - start)) s"
	else
		fail "npm install -g ${want[*]}"
		HAVE_CLAUDE=0 HAVE_CODEX=0 HAVE_GEMINI=0
	fi
else
	echo "the pinned agents are installed already in $NPG"
fi
