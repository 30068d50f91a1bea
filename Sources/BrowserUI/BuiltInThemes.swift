/// The default theme's text, compiled in (the same as `Themes/default.theme`).
enum BuiltInThemes {
    static let dark = """
        header = 231 on 24 bold
        status = 252 on 236
        selection = 16 on 117
        folder = 75 bold
        file = default
        link = 80
        image = 114
        video = 177
        audio = 215
        document = 110
        text = 250
        archive = 180
        hidden = 244
        size = 245
        date = 243
        border = 238
        title = 231 bold
        message = 229
        error = 203 bold
        filter = 16 on 222
        tile = 252
        help = 252 on 235
        """
}
