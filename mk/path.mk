DEB_PKGS += jq
