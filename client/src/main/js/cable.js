// The module the extension serves (quarkus.cable.client.path): @anycable/web as it is published, so its own
// documentation applies unchanged. Pages pass protocol "actioncable-v1-ext-json" to createCable for recovery,
// presence and whispers; the default stays @anycable/web's own, plain Action Cable.
export * from "@anycable/web";
