// What the API server accepts as an object's name and namespace (RFC 1123 subdomain and label): what osm-krm
// reads as a name is held to it, so a name fits every place it goes (a Secret's name, a state key, a path).
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A valid metadata.name: a lowercase RFC 1123 subdomain of at most 253 characters. */
export function isObjectName(name: string): boolean {
  return name.length <= 253 && DNS_SUBDOMAIN.test(name);
}

/** A valid metadata.namespace: an RFC 1123 label of at most 63 characters. */
export function isNamespaceName(namespace: string): boolean {
  return namespace.length <= 63 && DNS_LABEL.test(namespace);
}
