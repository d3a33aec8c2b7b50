"""What both ends of a connection share: the frames and their checks (`frames`), join codes
(`codes`), and the sealed channel between a host and each peer (`channel`)."""
