package io.interpreter4j.cluster;

/**
 * Marks a message (or persisted event) that crosses nodes or goes into the journal: it is serialized as JSON by
 * pekko-serialization-jackson (the binding is set in cluster mode only, by {@code ClusterConfig}).
 */
public interface ClusterMessage {}
