/// Bounds on what a parser accepts: deep links come from outside the app.
public struct DeepLinkLimits: Sendable, Equatable {
    /// The longest text, in UTF-8 bytes.
    public var maxLength: Int
    /// The most segments.
    public var maxSegments: Int
    /// The most parameters in one segment.
    public var maxParameters: Int

    /// Limits of `maxLength` UTF-8 bytes, `maxSegments` segments and `maxParameters` parameters
    /// per segment; the defaults fit any link an app makes.
    public init(maxLength: Int = 8_192, maxSegments: Int = 64, maxParameters: Int = 32) {
        self.maxLength = maxLength
        self.maxSegments = maxSegments
        self.maxParameters = maxParameters
    }

    /// 8 KiB, 64 segments, 32 parameters per segment: generous for a deep link, and bounded.
    public static let `default` = DeepLinkLimits()
}
